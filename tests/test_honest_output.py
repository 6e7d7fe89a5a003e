"""What the commands and the README say: the README's example output is what the command
prints, `--help` says that a shared first place is no seat's win, and a solo game has no
first-player advantage or seat gap (null in JSON).

When a rule change moves the README's example numbers, rewrite the example from the real
output with `python -m tests.test_honest_output` (it prints what it changed)."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

from typer.testing import CliRunner

import cli

README = Path(__file__).resolve().parent.parent / "README.md"
EXAMPLE = "balance simulate sunken-city --players 3 --games 1e4 --seed 1"
COMPILING = re.compile(r"^compiling the .* kernels, first run only")
TIMING = re.compile(r"^[\d,]+ games/s on \d+ threads? \([\d.]+ s\)$")
runner = CliRunner()


def _balance(command: str) -> str:
    res = runner.invoke(cli.app, shlex.split(command)[1:])
    assert res.exit_code == 0, res.output
    return res.output


def _readme_example() -> tuple[list[str], int, int]:
    """The README's lines, and the span (first, end) of the example's output lines: from the
    line after `$ EXAMPLE` to the next `$ ` line."""
    lines = README.read_text().splitlines()
    first = lines.index(f"$ {EXAMPLE}") + 1
    end = next(i for i in range(first, len(lines)) if lines[i].startswith("$ "))
    return lines, first, end


def _printed(timing: bool = False) -> list[str]:
    """What the example command prints; its timing line (which varies) as '...' unless
    timing."""
    # the one-time compile notice (stderr, on a cold numba cache) is not the command's output
    out = [t for t in _balance(EXAMPLE).splitlines() if not COMPILING.match(t)]
    return out if timing else [("..." if TIMING.match(t) else t) for t in out]


def test_readme_example_output_is_what_the_command_prints():
    lines, first, end = _readme_example()
    shown = [("..." if TIMING.match(t) else t) for t in lines[first:end]]
    assert shown == _printed(), "README example is stale: python -m tests.test_honest_output"


def test_help_says_a_shared_first_place_is_no_win():
    text = " ".join(_balance("balance simulate --help").split())
    assert "A shared first place counts as no seat's win" in text


def test_solo_game_has_no_first_player_advantage():
    """One player: the first-player advantage, the largest gap and the fairness test are null
    in JSON and absent from the text; losses count in no_winner, not as shared wins."""
    js = json.loads(
        _balance("balance simulate sunken-treasure --players 1 --games 300 --seed 2 --json")
    )
    b = js["balance"]
    for key in ("first_player_advantage", "first_player_advantage_ci", "largest_gap"):
        assert b[key] is None, key
    assert b["largest_gap_ci"] is None and js["seat_fairness"]["p_value"] is None
    assert js["shared_wins"] == 0 and js["no_winner"] + js["seats"][0]["wins"] == 300
    text = _balance("balance simulate sunken-treasure --players 1 --games 300 --seed 2")
    assert "solo: target reached in" in text and "first-player advantage" not in text


def main() -> None:
    """Rewrite the README's example output from what the command prints now."""
    lines, first, end = _readme_example()
    new = _printed(timing=True)
    if [("..." if TIMING.match(t) else t) for t in lines[first:end]] == _printed():
        print("README example already current")
        return
    README.write_text("\n".join(lines[:first] + new + lines[end:]) + "\n")
    print("README example rewritten:", *new, sep="\n")


if __name__ == "__main__":
    sys.exit(main())
