"""Trace mode: play one game with recording on, and turn the records into JSON lines and a
readable text replay. The format is documented in docs/trace-format-sumeria.md.
"""

from __future__ import annotations

import numpy as np

from simcore.frame import replay
from simcore.frame.replay import SEAT_LETTERS, GameTrace, TraceFormat, title_lines
from simcore.games.sumeria import state as S
from simcore.games.sumeria.board import LOCS_PER_STATE, N_STATES, TYPE_NAMES, load_map, loc_name
from simcore.games.sumeria.play import DRIVER
from simcore.games.sumeria.rules import P_N_SCORED, P_PLAYERS
from simcore.games.sumeria.state import (
    A_ADD,
    A_CONTROL,
    A_DISCARD,
    A_DRAW,
    A_MOVE,
    A_NEW_ROUND,
    A_PLACE,
    A_RECEIVE,
    A_REMOVE,
    A_TAKE,
    EMPTY,
    PH_CHOOSE,
    PH_SETUP,
    PH_TURN,
    S_CHOOSE_POS,
    S_DECISION,
    S_FIRST,
    S_PHASE,
    S_ROUND,
    S_SEAT,
    S_TURN,
    view,
)

PHASE_NAMES = {PH_SETUP: "setup", PH_TURN: "turn", PH_CHOOSE: "choose"}


def _none(v: int):
    return None if v < 0 else int(v)


def _types(counts) -> dict[str, int]:
    return {TYPE_NAMES[t]: int(n) for t, n in enumerate(counts) if n}


def state_json(snap: np.ndarray, r: np.ndarray) -> dict:
    """The full state (one snapshot) as plain data."""
    v = view(snap)
    players = int(r[P_PLAYERS])
    k = int(r[P_N_SCORED])
    board = {}
    for st in range(N_STATES):
        locs = {}
        for j in range(LOCS_PER_STATE):
            q = st * LOCS_PER_STATE + j
            if v.loc[q] != EMPTY:
                locs[loc_name(q)] = int(v.loc[q])
        board[str(st + 1)] = locs
    return {
        "decision": int(v.scal[S_DECISION]),
        "phase": PHASE_NAMES.get(int(v.scal[S_PHASE]), "other"),
        "round": int(v.scal[S_ROUND]),
        "turn": int(v.scal[S_TURN]),
        "seat": int(v.scal[S_SEAT]),
        "first_player": int(v.scal[S_FIRST]),
        "order": [int(st) + 1 for st in v.order],
        "traders": board,
        "reserve": [int(n) for n in v.reserve[:players]],
        "display": [_types(v.display[p]) for p in range(k)],
        "choosing_position": int(v.scal[S_CHOOSE_POS]) if v.scal[S_PHASE] == PH_CHOOSE else None,
        "held": [_types(v.held[s]) for s in range(players)],
        "bag": _types(v.bag),
        "discarded": _types(v.discarded),
    }


def actions_json(recs: np.ndarray) -> list[dict]:
    """One decision's records (the decision and the automatic steps it set off)."""
    out: list[dict] = []
    for rec in recs:
        seat = int(rec[1])
        kind = int(rec[2])
        a, b, c, d, e, f = (int(x) for x in rec[3:9])
        if kind in (A_PLACE, A_ADD, A_REMOVE):
            name = {A_PLACE: "place", A_ADD: "add", A_REMOVE: "remove"}[kind]
            out.append(
                {
                    "type": name,
                    "seat": seat,
                    "location": loc_name(a),
                    "state": b + 1,
                    "position": c + 1,
                    "swapped_with": None if d < 0 else d + 1,
                }
            )
        elif kind == A_MOVE:
            out.append(
                {
                    "type": "move",
                    "seat": seat,
                    "from": loc_name(a),
                    "to": loc_name(b),
                    "jumped": bool(c),
                    "position": d + 1,
                    "swapped_with": None if e < 0 else e + 1,
                    "source_position": None if f < 0 else f + 1,
                }
            )
        elif kind == A_CONTROL:
            out.append(
                {
                    "type": "control",
                    "position": a + 1,
                    "state": b + 1,
                    "controller": _none(c),
                    "second": _none(d),
                    "tiles": e,
                }
            )
        elif kind == A_TAKE:
            out.append(
                {
                    "type": "take",
                    "position": a + 1,
                    "seat": b,
                    "tile": TYPE_NAMES[c],
                    "chosen": bool(d),
                }
            )
        elif kind == A_RECEIVE:
            out.append(
                {"type": "receive", "position": a + 1, "seat": b, "tile": TYPE_NAMES[c], "count": d}
            )
        elif kind == A_DISCARD:
            out.append({"type": "discard", "position": a + 1, "tile": TYPE_NAMES[b], "count": c})
        elif kind == A_NEW_ROUND:
            out.append({"type": "new_round", "first_player": a, "last_player": b})
        elif kind == A_DRAW:
            out.append({"type": "draw", "position": a + 1, "tiles": _types((b, c, d, e))})
    return out


def render(trace: GameTrace) -> list[str]:
    """The readable replay's lines, up to how the game ended."""
    h = trace.header
    out = title_lines(f"Sumeria, {h['players']} players", h)
    out[0] += f", map {h['rules']['map']}"
    last_round = -1
    for t in trace.turns:
        st = t["state"]
        if st["round"] != last_round and st["phase"] != "setup":
            last_round = st["round"]
            out.append("")
            out.append(
                f"== Round {st['round'] + 1}: first player {SEAT_LETTERS[st['first_player']]} =="
            )
            out.append(draw_board(st))
        for a in t["actions"]:
            out.append(f"  [{st['decision']:3d}] " + replay.describe(a, PHRASES))
    return out


def ending(e: dict) -> str:
    return replay.game_over(e, reason=False)


def draw_board(st: dict) -> str:
    """The city-states in order of importance: per state its city, towns and villages
    ('.' empty, A-D a trader), then the tiles above the scored ones."""
    lines = []
    for p, state in enumerate(st["order"]):
        occ = st["traders"][str(state)]
        cells = []
        for j in range(LOCS_PER_STATE):
            name = loc_name((state - 1) * LOCS_PER_STATE + j)
            cells.append(SEAT_LETTERS[occ[name]] if name in occ else ".")
        row = f"  {p + 1}. state {state}: city {cells[0]} towns {''.join(cells[1:4])} "
        row += f"villages {''.join(cells[4:7])}"
        if p < len(st["display"]):
            row += "   tiles " + (
                ", ".join(f"{n} {t}" for t, n in st["display"][p].items()) or "none"
            )
        lines.append(row)
    held = " | ".join(
        f"{SEAT_LETTERS[s]}: "
        + (", ".join(f"{n} {t[:3]}" for t, n in h.items()) or "-")
        + f" (reserve {st['reserve'][s]})"
        for s, h in enumerate(st["held"])
    )
    lines.append("  held: " + held)
    return "\n".join(lines)


def _trader(a: dict) -> str:
    """A place, an add or a remove, and the swap of city-states it caused."""
    t = a["type"]
    verb = {"place": "places a trader on", "add": "adds a trader on", "remove": "removes"}[t]
    if t == "remove":
        verb = "removes the trader from"
    shift = (
        f"; state {a['state']} swaps with {a['swapped_with']} to place {a['position']}"
        if a["swapped_with"]
        else ""
    )
    return f"{SEAT_LETTERS[a['seat']]} {verb} {a['location']}{shift}"


def _move(a: dict) -> str:
    jump = " (jumping)" if a["jumped"] else ""
    shift = f"; swaps with state {a['swapped_with']}" if a["swapped_with"] else ""
    return f"{SEAT_LETTERS[a['seat']]} moves {a['from']} -> {a['to']}{jump}{shift}"


def _control(a: dict) -> str:
    c = SEAT_LETTERS[a["controller"]] if a["controller"] is not None else "nobody"
    s2 = SEAT_LETTERS[a["second"]] if a["second"] is not None else "nobody"
    return (
        f"scoring place {a['position']} (state {a['state']}, {a['tiles']} tiles): "
        f"control {c}, second {s2}"
    )


def _draw(a: dict) -> str:
    tiles = ", ".join(f"{n} {k}" for k, n in a["tiles"].items()) or "none (bag empty)"
    return f"tiles drawn for place {a['position']}: {tiles}"


# the sentence of each action type (simcore.frame.replay.describe)
PHRASES = {
    "place": _trader,
    "add": _trader,
    "remove": _trader,
    "move": _move,
    "control": _control,
    "take": lambda a: (
        f"{SEAT_LETTERS[a['seat']]} {'chooses' if a['chosen'] else 'takes'} a {a['tile']} tile"
    ),
    "receive": "{seat!L} receives {count} {tile} tile(s) as second",
    "discard": "{count} {tile} tile(s) discarded",
    "new_round": "{last_player!L} had the fewest traders: {first_player!L} is first player",
    "draw": _draw,
}


def max_turns(rules, players: int) -> int:
    """The most decisions a game can take (and room for the setup's)."""
    return (
        players * (rules.initial_traders[players - 3] + rules.rounds * (rules.turns_per_round + 9))
        + 16
    )


def turn_actions(snap: np.ndarray, recs: np.ndarray, r: np.ndarray) -> list[dict]:
    return actions_json(recs)


def routes(rules, r: np.ndarray) -> dict:
    """The map's trade routes."""
    return {"routes": [[loc_name(a), loc_name(b)] for a, b in load_map(rules.map)]}


# the end line's final state: the influence tiles held per seat by type (the scores and the
# tie-break), the traders on the board, the reserves, the display and the bag
FORMAT = TraceFormat(
    DRIVER,
    S,
    max_turns,
    state_json,
    turn_actions,
    render,
    ending,
    final_state=state_json,
    clock="S_DECISION",
    turn_type="decision",
    header_extra=routes,
)
