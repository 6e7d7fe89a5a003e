"""Trace mode: play one game with recording on, and turn the records into JSON lines and a
readable text replay. The format is documented in docs/trace-format.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simcore.frame import replay
from simcore.frame.replay import SEAT_LETTERS, GameTrace, TraceFormat, title_lines
from simcore.games.sunken_city import engine
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.play import DRIVER
from simcore.games.sunken_city.rules import (
    N_TREASURES,
    P_ADVANCED,
    P_CENTRE,
    P_N_CARDS,
    P_PLAYERS,
    R_CARDS,
    R_KIND,
    SIZE,
)
from simcore.games.sunken_city.state import (
    A_BANISH,
    A_CARD,
    A_CHIP,
    A_END_TURN,
    A_GROTTO,
    A_HOURGLASS,
    A_HOUSE,
    A_PHASE,
    A_SEND_HOME,
    A_SINK_STEP,
    A_SPIRIT_BEGIN,
    A_SPIRIT_END,
    A_SPIRIT_STEP,
    A_STACK_TURN,
    A_STEP,
    A_STREET,
    BANKED,
    CARRIED,
    END_REASONS,
    HOUSE_BASE,
    HOUSE_SIDE,
    N_SLOTS,
    PHASE_NAMES,
    S_CHIP_SUPPLY,
    S_DRAW_SPACE,
    S_END_REASON,
    S_GROTTO_SPACE,
    S_HOURGLASS,
    S_PHASE,
    S_ROUND,
    S_SEAT,
    S_SPIRIT_SLOT,
    S_TURN,
    VILLAGE,
    view,
)

TREASURE_VALUES = list(range(1, 11)) + [12]


def _rc(q: int) -> list[int]:
    return [int(q) // SIZE, int(q) % SIZE]


def _values(mask: int) -> list[int]:
    return [TREASURE_VALUES[t] for t in range(N_TREASURES) if mask & (1 << t)]


class _Pieces:
    """Piece geometry during a turn: slot -> squares, updated as pieces appear and sink."""

    def __init__(self, snap: np.ndarray):
        v = view(snap)
        self.sq = {
            int(k): [int(q) for q in v.piece_sq[k] if q >= 0]
            for k in range(N_SLOTS)
            if v.piece_sq[k, 0] >= 0
        }

    def pos(self, slot: int, seat: int = -1) -> Any:
        """A position: {"village": seat} (an adventurer's own village: `seat` is its seat),
        "grotto", or a piece and its squares."""
        if slot == VILLAGE:
            if seat < 0:
                raise ValueError("a village position needs the seat whose village it is")
            return {"village": int(seat)}
        if slot < -1:
            return "grotto"
        return {"piece": self.name(slot), "squares": [_rc(q) for q in self.sq.get(slot, [])]}

    @staticmethod
    def name(slot: int) -> str:
        return f"house{slot - HOUSE_BASE + 1}" if slot >= HOUSE_BASE else f"street{slot}"


def state_json(snap: np.ndarray, r: np.ndarray) -> dict:
    """The full state (one snapshot) as plain data."""
    v = view(snap)
    players = int(r[P_PLAYERS])
    pieces = _Pieces(snap)
    streets = [
        {"piece": pieces.name(k), "squares": [_rc(q) for q in sq]}
        for k, sq in sorted(pieces.sq.items())
        if k < HOUSE_BASE
    ]
    houses = {}
    for h in range(1, 11):
        q = v.piece_sq[HOUSE_BASE + h - 1, 0]
        in_play = engine.house_in_play(r, h)
        houses[str(h)] = _rc(q) if q >= 0 else ("grotto" if in_play else "out")
    treasures = []
    for seat in range(players):
        row = v.treasure[seat]
        treasures.append(
            {
                "house_side": [
                    TREASURE_VALUES[t] for t in range(N_TREASURES) if row[t] == HOUSE_SIDE
                ],
                "carried": [TREASURE_VALUES[t] for t in range(N_TREASURES) if row[t] == CARRIED],
                "banked": [TREASURE_VALUES[t] for t in range(N_TREASURES) if row[t] == BANKED],
            }
        )
    n_cards = int(r[P_N_CARDS])
    out = {
        "turn": int(v.scal[S_TURN]),
        "round": int(v.scal[S_ROUND]),
        "seat": int(v.scal[S_SEAT]),
        "streets": streets,
        "houses": houses,
        "spirit": pieces.pos(int(v.scal[S_SPIRIT_SLOT]))
        if v.scal[S_SPIRIT_SLOT] >= 0
        else None,  # the advanced game's grotto space, below
        "adventurers": [pieces.pos(int(v.adv[s]), s) for s in range(players)],
        "treasures": treasures,
        "chips": [int(c) for c in v.chips[:players]],
        "chip_supply": int(v.scal[S_CHIP_SUPPLY]),
        "hands": [[c for c in range(n_cards) if v.hand[s] & (1 << c)] for s in range(players)],
        "stacks": [int(k) for k in v.stacks],
        "draw_space": int(v.scal[S_DRAW_SPACE]) + 1,
        "box": int(v.scal[4]),
        "hourglass": bool(v.scal[S_HOURGLASS]),
        "end_triggered": END_REASONS[int(v.scal[S_END_REASON])]
        if v.scal[S_END_REASON] >= 0
        else None,
    }
    if int(r[P_ADVANCED]) == 1:
        # seed 001: the phase, and the spirit on the lake or in a grotto space
        g = int(v.scal[S_GROTTO_SPACE])
        out["phase"] = PHASE_NAMES[int(v.scal[S_PHASE])]
        out["grotto"] = g if g > 0 else None
        if int(v.scal[S_SPIRIT_SLOT]) < 0:
            out["spirit"] = {"grotto": g}
    return out


def _spirit_pos(pieces: _Pieces, slot: int, grotto: int) -> Any:
    return {"grotto": grotto} if slot < 0 else pieces.pos(slot)


def actions_json(recs: np.ndarray, pieces: _Pieces) -> list[dict]:
    """One turn's records -> actions (steps grouped into moves, spirit records into one move)."""
    out: list[dict] = []
    move: dict | None = None
    spirit: dict | None = None
    sink: dict | None = None  # advanced: the forced spirit steps of one stretch of a turn
    target: dict | None = None  # advanced: the step or banishment the next sinking belongs to
    for rec in recs:
        kind = int(rec[2])
        a, b, c, d, e, f, g, h, i = (int(v) for v in rec[3:12])
        if kind != A_STEP:
            move = None
        if kind not in (A_SINK_STEP, A_SPIRIT_STEP, A_SEND_HOME):
            sink = None
        if kind == A_SINK_STEP:
            if sink is None:
                sink = {"type": "sink", "mover": int(rec[1]), "start": pieces.pos(a), "path": []}
                out.append(sink)
            target = {"to": pieces.pos(b), "points_left": c, "sunk": None, "sent_home": []}
            sink["path"].append(target)
            continue
        if kind == A_BANISH:
            target = {
                "type": "banish",
                "mover": int(rec[1]),
                "from": pieces.pos(a) if a >= 0 else "grotto",
                "grotto": b,
                "points_left": c,
                "sunk": None,
                "sent_home": [],
            }
            out.append(target)
            continue
        if kind in _PLAIN:
            if kind == A_PHASE:
                target = None
            out.append(_plain_action(kind, rec, pieces))
            continue
        if kind == A_STEP:
            if move is None:
                move = {"type": "move", "start": pieces.pos(a, int(rec[1])), "path": []}
                out.append(move)
            move["path"].append(
                {
                    "to": pieces.pos(b, int(rec[1])),
                    "recovered": _values(d),
                    "banked": _values(e),
                    "points_left": f,
                }
            )
        elif kind == A_SPIRIT_BEGIN:
            spirit = {
                "type": "spirit",
                "mover": int(rec[1]),
                "limit": a,
                "die_roll": None if b < 0 else b,
                "territory_owner": None if c < 0 else c,
                "start": pieces.pos(d),
                "path": [],
                "steps": 0,
            }
            out.append(spirit)
        elif kind == A_SPIRIT_STEP:
            step = {
                "to": pieces.pos(b),
                "sunk": {
                    "piece": pieces.name(a),
                    "kind": "house" if c else "street",
                    "squares": [_rc(q) for q in (g, h) if q >= 0],
                },
                "sent_home": [],
            }
            if c:
                step["sunk"]["house"] = d
            else:
                step["sunk"]["to_space"] = i + 1
            pieces.sq.pop(a, None)
            if target is not None:
                target["sunk"] = step["sunk"]
            elif spirit is not None:
                spirit["path"].append(step)
        elif kind == A_SEND_HOME:
            if target is not None:
                target["sent_home"].append({"seat": a, "lost": _values(b), "chip": bool(c)})
            elif spirit is not None and spirit["path"]:
                spirit["path"][-1]["sent_home"].append(
                    {"seat": a, "lost": _values(b), "chip": bool(c)}
                )
        elif kind == A_SPIRIT_END:
            if spirit is not None:
                spirit["steps"] = a
            spirit = None
    return out


_PLAIN = (
    A_PHASE,
    A_GROTTO,
    A_CARD,
    A_STREET,
    A_HOUSE,
    A_CHIP,
    A_STACK_TURN,
    A_HOURGLASS,
    A_END_TURN,
)


def _plain_action(kind: int, rec: np.ndarray, pieces: _Pieces) -> dict:
    """The action of a record that stands alone (not part of a move, a spirit move or a
    sinking); a street or house also updates the pieces' squares."""
    a, b, c, d = (int(v) for v in rec[3:7])
    if kind == A_PHASE:
        return {
            "type": "phase",
            "phase": PHASE_NAMES[a],
            "points": b,
            "spirit": _spirit_pos(pieces, c, d),
        }
    if kind == A_GROTTO:
        return {"type": "grotto", "from": a, "to": b}
    if kind == A_CARD:
        return {"type": "card", "card": a, "raise": b, "move": c, "icon": bool(d)}
    if kind == A_STREET:
        pieces.sq[d] = [q for q in (a, b) if q >= 0]
        return {
            "type": "street",
            "piece": pieces.name(d),
            "squares": [_rc(q) for q in (a, b) if q >= 0],
            "from_space": c + 1,
        }
    if kind == A_HOUSE:
        pieces.sq[HOUSE_BASE + a - 1] = [b]
        return {"type": "house", "house": a, "square": _rc(b)}
    if kind == A_CHIP:
        return {"type": "chip", "extra_points": a}
    if kind == A_STACK_TURN:
        return {"type": "stack_turn", "draw_space": a + 1}
    if kind == A_HOURGLASS:
        return {"type": "hourglass"}
    return {"type": "end_turn", "unraised": a, "points_left": b}


def render(trace: GameTrace) -> list[str]:
    """The readable replay's lines, up to how the game ended."""
    out = title_lines(f"Sunken City, {trace.header['players']} players", trace.header)
    for t, snap in zip(trace.turns, trace.snaps):
        st = t["state"]
        out += replay.turn_heading(st)
        out.append(draw_board(snap, trace.r))
        out.append(_summary_line(st))
        for a in t["actions"]:
            out.append("  " + replay.describe(a, PHRASES))
    return out


def ending(e: dict) -> str:
    return replay.game_over(e)


def _summary_line(st: dict) -> str:
    parts = []
    for s, tr in enumerate(st["treasures"]):
        parts.append(
            f"{SEAT_LETTERS[s]}: carried {tr['carried'] or '-'} banked "
            f"{tr['banked'] or '-'} chips {st['chips'][s]}"
        )
    phase = ""
    if "phase" in st:
        where = (
            f"in grotto space {st['spirit']['grotto']}"
            if "grotto" in st["spirit"]
            else "on the lake"
        )
        phase = f"; {st['phase']} phase, the spirit {where}"
    return (
        "  " + " | ".join(parts) + f"\n  stacks {st['stacks']} drawing from space "
        f"{st['draw_space']}" + (" (hourglass)" if st["hourglass"] else "") + phase
    )


def draw_board(snap: np.ndarray, r: np.ndarray) -> str:
    """The lake: '.' light water, ':' dark water, 'o' empty centre, '-' '|' street halves
    (or '#' a 1-square street), digits houses (0 = 10); after each square, '*' marks the spirit
    and letters the adventurers standing there."""
    v = view(snap)
    players = int(r[P_PLAYERS])
    lines = ["     " + "".join(f"c{c}  " for c in range(SIZE))]
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            q = row * SIZE + col
            slot = int(v.sq_piece[q])
            if slot < 0:
                kind = int(r[R_KIND + q])
                ch = "o" if q == r[P_CENTRE] else (":" if kind == 1 else ".")
                mark = ""
            else:
                if slot >= HOUSE_BASE:
                    ch = str((slot - HOUSE_BASE + 1) % 10)
                else:
                    a, b = int(v.piece_sq[slot, 0]), int(v.piece_sq[slot, 1])
                    ch = "#" if b < 0 else ("-" if abs(a - b) == 1 else "|")
                mark = "*" if v.scal[S_SPIRIT_SLOT] == slot and v.piece_sq[slot, 0] == q else ""
                if v.piece_sq[slot, 0] == q:
                    mark += "".join(SEAT_LETTERS[s] for s in range(players) if v.adv[s] == slot)
            cells.append((ch + mark).ljust(4))
        lines.append(f"r{row}   " + "".join(cells).rstrip())
    home = [SEAT_LETTERS[s] for s in range(players) if v.adv[s] == VILLAGE]
    lines.append("     in their villages: " + (", ".join(home) or "nobody"))
    return "\n".join(lines)


def _pos(p: Any) -> str:
    if isinstance(p, dict) and "village" in p:
        return f"seat {SEAT_LETTERS[p['village']]}'s village"
    return f"{p['piece']} at " + "+".join(f"r{a}c{b}" for a, b in p["squares"])


def _sent_home_text(sent: list[dict]) -> str:
    return "".join(
        f" [seat {SEAT_LETTERS[h['seat']]} sent home, loses {h['lost'] or 'nothing'}"
        + (", gets a chip]" if h["chip"] else "]")
        for h in sent
    )


def _card(a: dict) -> str:
    icon = ", spirit icon" if a["icon"] else ""
    return f"plays card {a['card']}: raise {a['raise']}, move {a['move']}{icon}"


def _street(a: dict) -> str:
    squares = " and ".join(f"r{x}c{y}" for x, y in a["squares"])
    return f"raises a street on {squares} (from space {a['from_space']})"


def _move_step(s: dict) -> str:
    d = _pos(s["to"])
    if s["recovered"]:
        d += f" (recovers {s['recovered']})"
    if s["banked"]:
        d += f" (banks {s['banked']})"
    return d


def _spirit_step(s: dict) -> str:
    return f"{_pos(s['to'])} ({s['sunk']['piece']} sinks)" + _sent_home_text(s["sent_home"])


def _sink_step(s: dict) -> str:
    sunk = f" ({s['sunk']['piece']} sinks)" if s["sunk"] else ""
    return _pos(s["to"]) + sunk + _sent_home_text(s["sent_home"])


def _move(a: dict) -> str:
    return f"moves from {_pos(a['start'])}: " + " -> ".join(map(_move_step, a["path"]))


def _spirit(a: dict) -> str:
    how = (
        f"rolls {a['die_roll']}"
        if a["die_roll"] is not None
        else f"own territory, limit {a['limit']}"
    )
    steps = " -> ".join(map(_spirit_step, a["path"])) or "no step"
    return f"moves the spirit ({how}) from {_pos(a['start'])}: {steps}"


def _sink(a: dict) -> str:
    steps = " -> ".join(map(_sink_step, a["path"]))
    return f"moves the spirit (sinking phase) from {_pos(a['start'])}: {steps}"


def _banish(a: dict) -> str:
    d = f"banishes the spirit to grotto space {a['grotto']}"
    if a["sunk"]:
        d += f" ({a['sunk']['piece']} sinks)"
    return d + _sent_home_text(a["sent_home"])


def _phase(a: dict) -> str:
    where = (
        f"grotto space {a['spirit']['grotto']}"
        if isinstance(a["spirit"], dict) and "grotto" in a["spirit"]
        else _pos(a["spirit"])
    )
    unit = "spirit" if a["phase"] == "sinking" else "building"
    return f"the {a['phase']} phase begins ({a['points']} {unit} points; the spirit at {where})"


def _end_turn(a: dict) -> str:
    extra = f" ({a['unraised']} pieces could not be raised)" if a["unraised"] else ""
    return "ends the turn" + extra


# the sentence of each action type (simcore.frame.replay.describe)
PHRASES = {
    "card": _card,
    "street": _street,
    "house": lambda a: f"raises house {a['house']} on r{a['square'][0]}c{a['square'][1]}",
    "chip": "uses a chip for {extra_points} extra movement points",
    "move": _move,
    "spirit": _spirit,
    "sink": _sink,
    "banish": _banish,
    "phase": _phase,
    "grotto": "sends the spirit from grotto space {from} to grotto space {to}",
    "stack_turn": "street space {draw_space} turns face up",
    "hourglass": "the hourglass shows: this round is the last",
    "end_turn": _end_turn,
}


def turn_actions(snap: np.ndarray, recs: np.ndarray, r: np.ndarray) -> list[dict]:
    return actions_json(recs, _Pieces(snap))


def cards(rules, r: np.ndarray) -> dict:
    """The movement cards of the packed rules."""
    return {
        "cards": [[int(r[R_CARDS + 3 * c + j]) for j in range(3)] for c in range(int(r[P_N_CARDS]))]
    }


def max_turns(rules, players: int) -> int:
    """The most turns a game can last."""
    return rules.max_rounds * players + 1


# final_state (the end line's "final"): everything a turn's state has (banked treasures per
# seat, hands, stacks, ...), after the last turn; header_extra: the cards
FORMAT = TraceFormat(
    DRIVER, S, max_turns, state_json, turn_actions, render, ending, state_json, cards
)
