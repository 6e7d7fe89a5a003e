"""Replay every game shares: play one game with its trace on and decode it into JSON lines (a
header line, one line per turn, an end line with the final state; docs/trace-format.md) and a
readable text.

A game's trace module describes its own part in a `TraceFormat` (how big a buffer one game
needs, how to read its records and snapshots, the JSON object of one turn, the final state of
the end line, header fields of its own, and the text rendering); `replay` does the rest.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from simcore.base.rulesbase import rules_hash
from simcore.frame.tracebuf import overflowed

SEAT_LETTERS = "ABCD"


@dataclass
class GameTrace:
    """A decoded game: header, one JSON object per turn (or decision), end; r is the packed
    rules and snaps the state before each turn (for text renderers that draw the board)."""

    header: dict
    turns: list[dict]
    end: dict
    r: np.ndarray
    snaps: np.ndarray
    render: Callable[[GameTrace], list[str]] = field(repr=False, compare=False)
    ending: Callable[[dict], str] = field(repr=False, compare=False)

    def jsonl(self) -> str:
        lines = [json.dumps(self.header)]
        lines += [json.dumps(t) for t in self.turns]
        lines.append(json.dumps(self.end))
        return "\n".join(lines) + "\n"

    def text(self) -> str:
        """The readable replay: the game's lines, then a blank line and how it ended."""
        return "\n".join(self.render(self) + ["", self.ending(self.end)]) + "\n"


@dataclass(frozen=True)
class TraceFormat:
    """What a game's trace module tells `replay`: its driver and state module, how many turns
    (or decisions) a game can last, the JSON object of one turn, the final state that the end
    line carries (everything the scores are computed from, so that an outside program can
    check the last turn and the scores) and the text rendering.

    From the state module: END_REASONS, A_GAME_END (the game-end record, not listed in a
    turn), TRACE (its simcore.frame.tracebuf.TraceShape: the buffer, its records and
    snapshots), and the field named by `clock` that an action record's first value is matched
    with."""

    driver: Any  # the game's simcore.frame.skeleton driver (play.DRIVER)
    state: ModuleType
    turns: Callable[[Any, int], int]  # (rules, players) -> the longest game, in snapshots
    state_json: Callable[[np.ndarray, np.ndarray], dict]  # (snapshot, r) -> the state
    actions: Callable[[np.ndarray, np.ndarray, np.ndarray], list]  # (snapshot, records, r)
    render: Callable[[GameTrace], list[str]]  # the title, then each turn's lines
    ending: Callable[[dict], str]  # the end line -> the sentence on how the game ended
    final_state: Callable[[np.ndarray, np.ndarray], dict]  # (final state, r) -> end's "final"
    header_extra: Callable[[Any, np.ndarray], dict] = lambda rules, r: {}  # (rules, r)
    clock: str = "S_TURN"
    turn_type: str = "turn"  # the "type" of a turn's line ("decision" in Sumeria)
    tiebreaks: bool = True  # the end line lists the tie-breaks


def seat_labels(seats, players: int, index: int, rotate: bool) -> list[str]:
    """The policy label of each seat of game `index` (seat rotation as in simcore.frame.seats)."""
    return [seats[(s + index) % players if rotate else s].label for s in range(players)]


def replay(
    fmt: TraceFormat,
    game: str,
    pack: Callable[[Any, int], np.ndarray],
    rules,
    players: int,
    seats,
    seed: int,
    index: int,
    *,
    rotate: bool = False,
    checked: bool = True,
    version: str = "",
    policy_arrays=None,
) -> GameTrace:
    """Play game `index` of `game` under `seed` with tracing on and decode it."""
    r = pack(rules, players)
    ids, w = policy_arrays
    shape = fmt.state.TRACE
    tr = shape.new(fmt.turns(rules, players), enabled=True)
    row = np.zeros(len(fmt.driver.columns), dtype=np.int64)
    final = fmt.driver.play_game(
        r, ids, w, np.uint64(seed), np.uint64(index), rotate, checked, tr, row
    )
    if overflowed(tr):
        raise RuntimeError("trace buffer overflow")
    recs = shape.actions(tr)
    snaps = shape.snapshots(tr)
    resolved = rules.resolved(players)
    header = {
        "type": "game",
        "game": game,
        "version": version,
        "players": players,
        "seed": seed,
        "index": index,
        "rotate_seats": rotate,
        "policies": seat_labels(seats, players, index, rotate),
        "rules": resolved,
        "rules_hash": rules_hash(resolved),
        **fmt.header_extra(rules, r),
    }
    clock = getattr(fmt.state, fmt.clock)
    turns = []
    for snap in snaps:
        sel = recs[(recs[:, 0] == snap[clock]) & (recs[:, 2] != fmt.state.A_GAME_END)]
        turns.append(
            {
                "type": fmt.turn_type,
                "state": fmt.state_json(snap, r),
                "actions": fmt.actions(snap, sel, r),
            }
        )
    end = end_line(fmt, row, players)
    end["final"] = fmt.final_state(final, r)
    return GameTrace(header, turns, end, r, snaps, fmt.render, fmt.ending)


def end_line(fmt: TraceFormat, row: np.ndarray, players: int) -> dict:
    """The trace's last line, from the game's result row (`replay` adds the final state)."""
    col = {c: i for i, c in enumerate(fmt.driver.columns)}
    end = {
        "type": "end",
        "end_reason": fmt.state.END_REASONS[int(row[col["end_reason"]])],
        "winner": int(row[col["winner"]]),
        "win_mask": int(row[col["win_mask"]]),
        "rounds": int(row[col["rounds"]]),
        "turns": int(row[col["turns"]]),
        "scores": [int(row[col[f"score_{s}"]]) for s in range(players)],
    }
    if fmt.tiebreaks:
        end["tiebreaks"] = [int(row[col[f"tiebreak_{s}"]]) for s in range(players)]
    end["error"] = int(row[col["error"]])
    return end


def title_lines(title: str, header: dict) -> list[str]:
    """The first two lines of every text replay: the game and its seats."""
    return [
        f"{title}, seed {header['seed']}, game {header['index']}",
        "Seats: " + ", ".join(f"{SEAT_LETTERS[i]}={p}" for i, p in enumerate(header["policies"])),
    ]


class _Phrase(string.Formatter):
    """str.format's fields, and {field!L}: the letter of the seat in that field."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "L":
            return SEAT_LETTERS[value]
        return super().convert_field(value, conversion)


_PHRASE = _Phrase()


def describe(a: dict, phrases: dict[str, str | Callable[[dict], str]]) -> str:
    """The readable sentence of a decoded action `a`: the phrase of its type, either a format
    string of the action's fields by name ("banks ${value:,}"; "seat {seat!L}" for the seat's
    letter) or a function of the action; the action as JSON when its type has none."""
    phrase = phrases.get(a["type"])
    if phrase is None:
        return json.dumps(a)
    return phrase(a) if callable(phrase) else _PHRASE.vformat(phrase, (), a)


def turn_heading(st: dict) -> list[str]:
    """A blank line and '== Round 2, turn 5: seat B ==' before a turn of a game in rounds (st:
    the turn's state, with round, turn and seat)."""
    return [
        "",
        f"== Round {st['round'] + 1}, turn {st['turn'] + 1}: seat {SEAT_LETTERS[st['seat']]} ==",
    ]


def game_over(end: dict, reason: bool = True) -> str:
    """'Game over (reason) after 9 rounds. Scores [..], tie-breaks [..]. Winner: seat B.' (the
    end reason left out unless `reason`)."""
    why = f" ({end['end_reason']})" if reason else ""
    return (
        f"Game over{why} after {end['rounds']} rounds. Scores {end['scores']}, tie-breaks "
        f"{end['tiebreaks']}. " + winner_sentence(end)
    )


def winner_sentence(end: dict) -> str:
    """'Winner: seat B.' or 'Shared win: seats A, C.'"""
    if end["winner"] >= 0:
        return f"Winner: seat {SEAT_LETTERS[end['winner']]}."
    shared = [SEAT_LETTERS[s] for s in range(len(end["scores"])) if end["win_mask"] & (1 << s)]
    return "Shared win: seats " + ", ".join(shared) + "."
