"""Pig's trace: the state before each turn, the turn's rolls and its end (a pig or a hold) as
JSON, and a readable replay; docs/trace-format-pig.md."""

from __future__ import annotations

import numpy as np

from simcore.frame import replay
from simcore.frame.replay import SEAT_LETTERS, GameTrace, TraceFormat, title_lines, winner_sentence
from simcore.games.pig import state as S
from simcore.games.pig.play import DRIVER


def state_json(snap: np.ndarray, r: np.ndarray) -> dict:
    """A state as plain data: the turn, the seat on turn, both scores, the turn total and how
    the game stands (end: the end reason once it is over, else None)."""
    return {
        "turn": int(snap[S.S_TURN]),
        "seat": int(snap[S.S_SEAT]),
        "scores": [int(snap[S.field(k, S.F_SCORE)]) for k in range(S.MAX_PLAYERS)],
        "turn_total": int(snap[S.S_TOTAL]),
        "end": S.END_REASONS[int(snap[S.S_END_REASON])] if snap[S.S_GAME_OVER] else None,
    }


def turn_actions(snap: np.ndarray, recs: np.ndarray, r: np.ndarray) -> list[dict]:
    """One turn's records: rolls (face, turn total after), then a pig (the total lost) or a
    hold (points banked, score after)."""
    out: list[dict] = []
    for rec in recs:
        kind, a, b = int(rec[2]), int(rec[3]), int(rec[4])
        if kind == S.A_ROLL:
            out.append({"type": "roll", "face": a, "turn_total": b})
        elif kind == S.A_PIG:
            out.append({"type": "pig", "face": a, "lost": b})
        elif kind == S.A_HOLD:
            out.append({"type": "hold", "banked": a, "score": b})
    return out


# the sentence of each action type (simcore.frame.replay.describe)
PHRASES = {
    "roll": "rolls {face} (turn total {turn_total})",
    "pig": "rolls {face}: pig, loses {lost}",
    "hold": "holds: banks {banked}, score {score}",
}


def render(trace: GameTrace) -> list[str]:
    """The readable replay: one line per turn (the scores before it), then its actions."""
    out = title_lines(f"Pig to {trace.header['rules']['target']}", trace.header)
    for t in trace.turns:
        st = t["state"]
        sc = " ".join(f"{SEAT_LETTERS[k]} {v}" for k, v in enumerate(st["scores"]))
        acts = "; ".join(replay.describe(a, PHRASES) for a in t["actions"])
        out.append(f"turn {st['turn'] + 1}, seat {SEAT_LETTERS[st['seat']]} ({sc}): {acts}")
    return out


def ending(e: dict) -> str:
    win = winner_sentence(e) if e["win_mask"] else "No winner."
    scores = ", ".join(str(v) for v in e["scores"])
    return f"Game over ({e['end_reason']}) after {e['turns']} turns. Scores {scores}. {win}"


def max_turns(rules, players: int) -> int:
    """The most turns a game can last (the turn limit)."""
    return rules.max_turns + 1


# the end line's final: the state after the last turn (its `turn` counts every turn played,
# the winning one included; `seat` is the seat that played last when the target was reached,
# else the seat that would play next)
FORMAT = TraceFormat(
    DRIVER, S, max_turns, state_json, turn_actions, render, ending, state_json, tiebreaks=False
)
