"""Checks of the user's input, written once for every command and API function: game counts,
seeds and game indices, output files and folders. Each raises RulesError with one line that
names the option (the command line prints it and exits with status 2).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

from simcore.rulesbase import RulesError

ROWS_SUFFIXES = (".csv", ".parquet")  # simulate --out
TRACE_SUFFIXES = (".txt", ".jsonl", ".json")  # replay --out
PLOT_SUFFIXES = (".png", ".svg", ".pdf")  # sweep --out


def parse_count(text: str, what: str = "--games") -> int:
    """'100000', '1e6', '1_000_000' -> a whole number (check_whole checks its range)."""
    t = str(text).strip().replace("_", "")
    try:
        v = float(t)
    except ValueError:
        raise RulesError(
            f"{what} must be a whole number such as 1000, 1e6 or 1_000_000, not '{text}'"
        ) from None
    if not math.isfinite(v) or not v.is_integer():
        raise RulesError(f"{what} must be a whole number, not '{text}'")
    return int(v)


def parse_player_counts(text: str) -> list[int] | None:
    """'2,3,4' -> [2, 3, 4] (whole numbers, no repeats); '' -> None (every count)."""
    if not text:
        return None
    out: list[int] = []
    for part in str(text).split(","):
        part = part.strip()
        if not part.isdigit():
            raise RulesError(
                f"--players must be a list of player counts such as 2,3,4, not '{text}'"
            )
        if int(part) in out:
            raise RulesError(f"--players lists {part} twice")
        out.append(int(part))
    return out


def check_whole(value, what: str, minimum: int = 0, purpose: str = "") -> int:
    """A whole number of at least `minimum` (bools refused), e.g. a seed, a game index or a
    number of games; purpose is added to the message (' for a comparison')."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise RulesError(f"{what} must be a whole number, not {value}")
    if value < minimum:
        bound = "0 or more" if minimum == 0 else f"at least {minimum}"
        raise RulesError(f"{what} must be {bound}{purpose}, not {value}")
    return int(value)


def check_seed(seed) -> int:
    return check_whole(seed, "--seed")


def check_games(games, minimum: int = 1, purpose: str = "") -> int:
    return check_whole(games, "--games", minimum, purpose)


def check_folder_of(path: str, what: str = "--out") -> None:
    """The folder a file will be written into exists and is writable."""
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise RulesError(f"{what} '{path}': folder '{parent}' does not exist")
    if not os.access(parent, os.W_OK):
        raise RulesError(f"{what} '{path}': folder '{parent}' is not writable")


def check_out_path(path: str | None, suffixes: tuple[str, ...]) -> Path | None:
    """An output file (None when not asked): not a folder, one of the suffixes, in a writable
    folder; a .parquet file needs pyarrow."""
    if path is None:
        return None
    p = Path(path)
    if p.is_dir():
        raise RulesError(f"--out '{path}' is a directory; give a file name")
    if p.suffix.lower() not in suffixes:
        raise RulesError(f"--out '{path}' must end in {' or '.join(suffixes)}")
    check_folder_of(path)
    if p.suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise RulesError(
                "--out .parquet needs pyarrow (pip install pyarrow); use .csv instead"
            ) from None
    return p


def check_out_folder(path: str) -> Path:
    """An output folder: created when missing, refused when it is a file."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise RulesError(f"--out '{path}' is a file; give a folder")
    return p
