"""The end line, check_trace (a whole trace judged) and the command line."""

from __future__ import annotations

import json
import sys

from tests.referee.board import (
    TraceError,
)
from tests.referee.spirit import RefereeSpirit


class Referee(RefereeSpirit):
    """The referee's own model of one game, fed turn by turn."""

    # ------------------------------------------------------------------------------------
    # the end

    def check_end(self, end: dict) -> None:
        self.ctx = "end"
        if not self.over:
            self.flag(
                f"the trace ends after turn {self.turn - 1}, but the game is not over "
                f"(round {self.round}, end condition {self.end_triggered})"
            )
        if end.get("end_reason") != self.end_reason:
            self.flag(f"end_reason is {end.get('end_reason')}, expected {self.end_reason}")
        if end.get("rounds") != self.round:
            self.flag(f"rounds is {end.get('rounds')}, expected {self.round}")
        if end.get("turns") != self.turn:
            self.flag(f"turns is {end.get('turns')}, expected {self.turn}")
        if end.get("error", 0) != 0:
            self.flag(f"the engine reports error {end.get('error')}")
        # the final state after the last turn: its last actions and the scores' ingredients
        if "final" not in end:
            self.flag("the end line carries no final state")
        else:
            self.compare_state(end["final"], first=False)
        scores, ties = [], []
        for tr in self.treasure:
            banked = [v for v, s in tr.items() if s == "banked"]
            if self.scoring == "count":
                scores.append(len(banked))
                ties.append(sum(banked))
            else:
                scores.append(sum(banked))
                ties.append(0)
        if end.get("scores") != scores:
            self.flag(f"scores are {end.get('scores')}, expected {scores}")
        if end.get("tiebreaks") != ties:
            self.flag(f"tiebreaks are {end.get('tiebreaks')}, expected {ties}")
        best = max(zip(scores, ties))
        top = [s for s in range(self.n) if (scores[s], ties[s]) == best]
        winner = top[0] if len(top) == 1 else -1
        mask = sum(1 << s for s in top)
        if end.get("winner") != winner or end.get("win_mask") != mask:
            self.flag(
                f"winner {end.get('winner')} / win_mask {end.get('win_mask')}, expected "
                f"{winner} / {mask}"
            )


def check_trace(lines: list[str] | str) -> list[str]:
    """Judge one game's JSON-lines trace; return the violations (empty: all legal)."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    rows = []
    for k, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            return [f"line {k + 1}: not JSON ({e})"]
    if not rows:
        return ["empty trace"]
    try:
        ref = Referee(rows[0])
    except TraceError as e:
        return [f"header: {e}"]
    end = None
    for k, row in enumerate(rows[1:], start=2):
        if not isinstance(row, dict):
            ref.ctx = f"line {k}"
            ref.flag(f"not an object: {row!r}")
            continue
        if end is not None:
            ref.ctx = f"line {k}"
            ref.flag("lines after the end line")
            break
        if row.get("type") == "turn":
            try:
                ref.play_turn(row)
            except TraceError as e:
                ref.flag(str(e))
                return ref.violations
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
                ref.flag(f"malformed turn ({e!r})")
                return ref.violations
        elif row.get("type") == "end":
            end = row
        else:
            ref.ctx = f"line {k}"
            ref.flag(f"unknown line type {row.get('type')!r}")
    if end is None:
        ref.ctx = "end"
        ref.flag("the trace has no end line")
    else:
        ref.check_end(end)
    return ref.violations


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] not in ("-",):
        with open(argv[0], encoding="utf-8") as f:
            text = f.read()
    else:
        text = sys.stdin.read()
    violations = check_trace(text)
    for v in violations:
        print(v)
    if not violations:
        print("ok: no violations")
    return 1 if violations else 0
