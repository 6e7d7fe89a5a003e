"""Trace mode: play one game with recording on, and turn the records into JSON lines and a
readable text replay. The format is documented in docs/trace-format-secrets-of-the-sea.md.
"""

from __future__ import annotations

import numpy as np

from simcore.frame import replay
from simcore.frame.replay import SEAT_LETTERS, GameTrace, TraceFormat, title_lines, winner_sentence
from simcore.games.secrets_of_the_sea import state as S
from simcore.games.secrets_of_the_sea.board import (
    COLS,
    ROWS,
)
from simcore.games.secrets_of_the_sea.play import DRIVER
from simcore.games.secrets_of_the_sea.rules import (
    BONUS_NAMES,
    P_N_TILES,
    P_PLAYERS,
    WRECK_BASE,
)
from simcore.games.secrets_of_the_sea.state import (
    A_BONUS,
    A_END_TURN,
    A_EXCHANGE,
    A_FIGHT,
    A_MOVE,
    A_REVEAL,
    A_ROLL,
    A_STOP,
    A_TAKE,
    A_WRECK,
    EMPTY,
    ON_BOARD,
    S_ROUND,
    S_SEAT,
    S_TURN,
    kind_name,
    tile_token,
    view,
)


def _die(d: int):
    return None if d < 0 else ("X" if d == 0 else d)


def state_json(snap: np.ndarray, r: np.ndarray) -> dict:
    """The full state (one snapshot before a turn) as plain data."""
    v = view(snap)
    players = int(r[P_PLAYERS])
    n_tiles = int(r[P_N_TILES])
    board = []
    for row in range(1, ROWS + 1):
        line = []
        for c in range(COLS):
            q = c * ROWS + row - 1
            t = int(v.space[q])
            if t == EMPTY:
                line.append(None)
            else:
                k = int(v.known[q])
                line.append({"tile": tile_token(r, t), "known": ("unlit", "lit", "front")[k]})
        board.append(line)
    held = [[tile_token(r, t) for t in range(n_tiles) if v.owner[t] == s] for s in range(players)]
    return {
        "turn": int(v.scal[S_TURN]),
        "round": int(v.scal[S_ROUND]),
        "seat": int(v.scal[S_SEAT]),
        "board": board,
        "wreck": [tile_token(r, t) for t in range(WRECK_BASE, n_tiles) if v.owner[t] == ON_BOARD],
        "held": held,
        "bonus": {BONUS_NAMES[b]: (int(v.bonus[b]) if v.bonus[b] >= 0 else None) for b in range(7)},
    }


def actions_json(recs: np.ndarray, r: np.ndarray) -> list[dict]:
    """One turn's records -> a list of actions."""
    out: list[dict] = []
    for rec in recs:
        kind = int(rec[2])
        a, b, c, d, e, f = (int(x) for x in rec[3:9])
        if kind == A_ROLL:
            out.append({"type": "roll", "dice": [_die(a), _die(b)], "blocked": c, "bust": bool(d)})
        elif kind == A_MOVE:
            seen = "wreck" if e == -2 else ("empty" if e < 0 else kind_name(f))
            out.append({"type": "move", "die": a, "buoy": b, "from": c, "to": d, "lamp": seen})
        elif kind == A_TAKE:
            out.append({"type": "take", "tile": tile_token(r, a), "value": c, "row": e})
        elif kind == A_REVEAL:
            out.append({"type": "reveal", "tile": tile_token(r, a), "pips": c})
        elif kind == A_FIGHT:
            out.append({"type": "fight", "dice": [_die(a), _die(b)], "pips": c, "won": bool(d)})
        elif kind == A_EXCHANGE:
            out.append(
                {
                    "type": "exchange",
                    "to_seat": a,
                    "took": tile_token(r, b),
                    "gave": tile_token(r, c),
                }
            )
        elif kind == A_WRECK:
            out.append({"type": "wreck", "tile": tile_token(r, a), "value": c})
        elif kind == A_STOP:
            out.append({"type": "stop", "buoy": a, "row": b})
        elif kind == A_BONUS:
            out.append({"type": "bonus", "bonus": BONUS_NAMES[a], "seat": b})
        elif kind == A_END_TURN:
            out.append({"type": "end_turn"})
    return out


def render(trace: GameTrace) -> list[str]:
    """The readable replay's lines, up to how the game ended."""
    out = title_lines(f"Secrets of the Sea, {trace.header['players']} players", trace.header)
    for t in trace.turns:
        st = t["state"]
        out += replay.turn_heading(st)
        out.append(draw_board(st))
        for a in t["actions"]:
            if a["type"] != "end_turn":
                out.append("  " + replay.describe(a, PHRASES))
    return out


def ending(e: dict) -> str:
    return (
        f"Game over ({e['end_reason']}) after {e['turns']} turns. Scores {e['scores']}. "
        + winner_sentence(e)
    )


def draw_board(st: dict) -> str:
    """The sea: one line per row, '.' empty, '?' a tile nobody has lit, the lit kind in lower
    case letters (shell s, amphora a, barrel b, gold g, chest c, seagrass w, exchange e,
    monster m, cave v), a monster whose front all have seen as M<pips>."""
    short = {
        "S": "s",
        "A": "a",
        "B": "b",
        "G": "g",
        "C": "c",
        "g": "w",
        "E": "e",
        "M": "m",
        "V": "v",
    }
    lines = [("       " + "".join(f"b{c}   " for c in range(COLS))).rstrip()]
    for i, row in enumerate(st["board"]):
        cells = []
        for cell in row:
            if cell is None:
                ch = "."
            elif cell["known"] == "unlit":
                ch = "?"
            elif cell["known"] == "front":
                ch = cell["tile"].lstrip("V")
            else:
                ch = short[cell["tile"][0]]
            cells.append(ch.ljust(5))
        lines.append(f"  r{i + 1:<3} " + "".join(cells).rstrip())
    lines.append("  wreck: " + (" ".join(st["wreck"]) or "-"))
    for s, tiles in enumerate(st["held"]):
        lines.append(f"  {SEAT_LETTERS[s]}: " + (" ".join(tiles) or "-"))
    got = [f"{k}={SEAT_LETTERS[v]}" for k, v in st["bonus"].items() if v is not None]
    if got:
        lines.append("  bonus tiles: " + ", ".join(got))
    return "\n".join(lines)


def _dice(a: dict) -> str:
    return " ".join("-" if x is None else str(x) for x in a["dice"])


def _move(a: dict) -> str:
    to = "the wreck" if a["lamp"] == "wreck" else f"row {a['to']}, the lamp shows {a['lamp']}"
    return f"dives with die {a['die']} at buoy {a['buoy']}: row {a['from']} -> {to}"


# the sentence of each action type (simcore.frame.replay.describe)
PHRASES = {
    "roll": lambda a: (
        f"rolls {_dice(a)}" + (" -- no die to dive with, the turn is over" if a["bust"] else "")
    ),
    "move": _move,
    "take": "takes {tile} ({value} points)",
    "reveal": "opens the cave: {pips} sea monsters to fight",
    "fight": lambda a: (
        f"fights {a['pips']} monsters, rolls {_dice(a)}: " + ("won" if a["won"] else "lost")
    ),
    "exchange": "gives the exchange tile to seat {to_seat!L}, takes {took}",
    "wreck": "reaches the wreck, takes {tile} ({value} points)",
    "stop": "stops over an empty space with nothing",
    "bonus": "takes the {bonus} bonus tile",
}


def turn_actions(snap: np.ndarray, recs: np.ndarray, r: np.ndarray) -> list[dict]:
    return actions_json(recs, r)


def max_turns(rules, players: int) -> int:
    """The most turns a game can last."""
    return rules.max_turns + 1


# the end line's final state: the tiles held per seat and the bonus tiles' owners (the
# scores), the board and the wreck
FORMAT = TraceFormat(
    DRIVER, S, max_turns, state_json, turn_actions, render, ending, state_json, tiebreaks=False
)
