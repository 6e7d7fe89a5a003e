"""Named preset files: a player's weights saved under a name (what `balance tune-players`
writes), loaded with `--policy-file FILE` or inline as `--policy NAME@FILE`.

The file is TOML:

    game = "sunken-city"          # the game the weights are for
    name = "tuned"                # the preset's name in --policy lists and `balance games`
    policy = "balanced"           # the compiled player whose weights these are
    description = "..."           # optional, shown by `balance games`
    [weights]                     # weight name -> value (the policy's weights not given
    greed = 5.31                  # keep that player's values)
    keys = 6
    [tuning]                      # optional: how the weights were found (not read back)

This module reads and writes the file and checks its form; simcore.frame.registry checks the game,
the player, the weights' names and their declared ranges (GameSpec.add_preset_file).
Every problem is one InputError line naming the file.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simcore.base.errors import InputError
from simcore.base.inputs import write_atomic

MAX_PRESET_FILE = 100_000  # bytes: a preset is a few dozen lines
NAME_RE = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
KEYS = {"game", "name", "policy", "description", "weights", "tuning"}


@dataclass(frozen=True)
class PresetFile:
    """A preset file's content (its form checked; the weights not yet checked against the
    game)."""

    path: str
    game: str
    name: str
    policy: str
    weights: dict[str, float]
    description: str = ""
    tuning: dict[str, Any] = field(default_factory=dict)


def _bad(path: str | Path, why: str) -> InputError:
    return InputError(f"--policy-file '{path}': {why}")


def _read_toml(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    if not p.is_file():
        raise _bad(path, "no such file" if not p.exists() else "not a file")
    try:
        if p.stat().st_size > MAX_PRESET_FILE:
            raise _bad(path, f"larger than {MAX_PRESET_FILE:,} bytes: not a preset file")
        return tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise _bad(path, f"cannot be read ({getattr(e, 'strerror', None) or e})") from None
    except tomllib.TOMLDecodeError as e:
        raise _bad(path, f"not valid TOML ({e})") from None


def _text(path, data: dict, key: str, required: bool = True) -> str:
    v = data.get(key, None if required else "")
    if not isinstance(v, str) or (required and not v.strip()):
        raise _bad(path, f"'{key}' must be a text such as {key} = \"...\"")
    return v.strip()


def _weight(path, k: str, v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise _bad(path, f"weight '{k}' must be a finite number, not {v!r}")
    return float(v)


def read_preset_file(path: str | Path) -> PresetFile:
    """The preset in `path`, its form checked: the keys above and no others, a lower-case name
    (letters, digits, '-' and '_'), weights that are finite numbers."""
    data = _read_toml(path)
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise _bad(path, f"unknown key '{unknown[0]}' (keys: {', '.join(sorted(KEYS))})")
    name = _text(path, data, "name")
    if not NAME_RE.match(name):
        raise _bad(
            path,
            f"name '{name}' must start with a lower-case letter and hold only lower-case "
            "letters, digits, '-' and '_' (at most 40 characters)",
        )
    weights = data.get("weights", {})
    if not isinstance(weights, dict):
        raise _bad(path, "[weights] must be a table of name = number")
    tuning = data.get("tuning", {})
    if not isinstance(tuning, dict):
        raise _bad(path, "[tuning] must be a table")
    return PresetFile(
        path=str(path),
        game=_text(path, data, "game"),
        name=name,
        policy=_text(path, data, "policy"),
        weights={str(k): _weight(path, k, v) for k, v in weights.items()},
        description=_text(path, data, "description", required=False),
        tuning=tuning,
    )


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def preset_toml(preset: PresetFile, whole: set[str] = frozenset()) -> str:
    """The text of a preset file (whole: the weights written as whole numbers)."""
    lines = [
        f"# a player preset: --policy-file {Path(preset.path).name} --policy {preset.name},...",
        f"game = {_toml_value(preset.game)}",
        f"name = {_toml_value(preset.name)}",
        f"policy = {_toml_value(preset.policy)}",
    ]
    if preset.description:
        lines.append(f"description = {_toml_value(preset.description)}")
    lines += ["", "[weights]"]
    for k, v in preset.weights.items():
        lines.append(f"{k} = {_toml_value(int(v) if k in whole else float(v))}")
    if preset.tuning:
        lines += ["", "[tuning]"]
        for k, v in preset.tuning.items():
            lines.append(f"{k} = {_toml_value(v)}")
    return "\n".join(lines) + "\n"


def write_preset_file(preset: PresetFile, whole: set[str] = frozenset()) -> None:
    """Write the preset to preset.path atomically (never a partial file)."""
    text = preset_toml(preset, whole)
    write_atomic(preset.path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
