"""Trace mode of Chutes and Ladders: one game's records as JSON lines and a readable replay.
The format is documented in docs/trace-format-chutes-and-ladders.md."""

from __future__ import annotations

import numpy as np

from simcore.frame.replay import SEAT_LETTERS, GameTrace, TraceFormat, title_lines
from simcore.games.chutes_and_ladders import state as S
from simcore.games.chutes_and_ladders.play import DRIVER
from simcore.games.chutes_and_ladders.rules import P_PLAYERS


def state_json(snap: np.ndarray, r: np.ndarray) -> dict:
    """The whole state (one snapshot, or the final state) as plain data."""
    players = int(r[P_PLAYERS])
    turn = int(snap[S.S_TURN])
    return {
        "turn": turn,
        "round": turn // players,
        "seat": int(snap[S.S_SEAT]),
        "squares": [int(snap[S.seat_field(k, S.F_SQUARE)]) for k in range(players)],
        "winner": int(snap[S.S_WINNER]) if snap[S.S_WINNER] >= 0 else None,
    }


def final_state(final: np.ndarray, r: np.ndarray) -> dict:
    """The end line's `final`: the state after the last spin, with `turn` the spins played and
    `round` and `seat` those of the last spin (the game ends at once, the next seat never
    comes)."""
    out = state_json(final, r)
    out["round"] = max(out["turn"] - 1, 0) // int(r[P_PLAYERS])
    return out


def turn_actions(snap: np.ndarray, recs: np.ndarray, r: np.ndarray) -> list[dict]:
    """One turn's records -> its spin: the face, the square it reaches (None: it would pass
    100, the piece stays), the square the piece ends on, and the link taken."""
    out: list[dict] = []
    for rec in recs:
        if int(rec[2]) != S.A_SPIN:
            continue
        face, to, end = (int(x) for x in rec[3:6])
        link = None
        if to >= 0 and end > to:
            link = "ladder"
        elif to >= 0 and end < to:
            link = "chute"
        out.append(
            {
                "type": "spin",
                "spin": face,
                "from": int(snap[S.seat_field(int(rec[1]), S.F_SQUARE)]),
                "reaches": to if to >= 0 else None,
                "square": end,
                "link": link,
            }
        )
    return out


def describe_action(a: dict) -> str:
    if a["reaches"] is None:
        return f"spins {a['spin']}: {a['from']} + {a['spin']} passes 100, stays on {a['from']}"
    text = f"spins {a['spin']}: {a['from']} -> {a['reaches']}"
    if a["link"] == "ladder":
        text += f", climbs a ladder to {a['square']}"
    elif a["link"] == "chute":
        text += f", slides down a chute to {a['square']}"
    return text


def render(trace: GameTrace) -> list[str]:
    """The readable replay's lines: one line a turn."""
    out = title_lines(f"Chutes and Ladders, {trace.header['players']} player(s)", trace.header)
    for t in trace.turns:
        st = t["state"]
        squares = " ".join(f"{SEAT_LETTERS[k]}{q}" for k, q in enumerate(st["squares"]))
        for a in t["actions"]:
            out.append(
                f"turn {st['turn'] + 1:>3} (round {st['round'] + 1:>3}) [{squares}] seat "
                f"{SEAT_LETTERS[st['seat']]} {describe_action(a)}"
            )
    return out


def ending(e: dict) -> str:
    if e["end_reason"] == "finish":
        result = f"seat {SEAT_LETTERS[e['winner']]} lands on 100 and wins"
    else:
        result = "no winner"
    squares = ", ".join(str(v) for v in e["scores"])
    return (
        f"Game over ({e['end_reason']}) after {e['turns']} spins ({e['rounds']} rounds): "
        f"{result}. Squares {squares}."
    )


def max_turns(rules, players: int) -> int:
    """The most turns a game can last: the round limit's."""
    return rules.max_rounds * players + 1


# the end line's final state: the squares after the last spin (the scores), the winner, the
# spins played and the last spin's round and seat
FORMAT = TraceFormat(
    DRIVER, S, max_turns, state_json, turn_actions, render, ending, final_state, tiebreaks=False
)
