"""Sumeria positions for tests and docs: `from_diagram` builds a state from the traders on
their locations (``"3C:A 3T1:B"``), the city-state order, the tiles on display and held."""

from __future__ import annotations

import numpy as np

from simcore.games.sumeria import board as B
from simcore.games.sumeria import rules as R
from simcore.games.sumeria import state as S
from simcore.games.sumeria.engine import recount


def from_diagram(
    r: np.ndarray,
    traders: dict[str, int] | str = "",
    *,
    order: tuple[int, ...] | None = None,
    first: int = 0,
    seat: int | None = None,
    display: list[list[int]] | None = None,
    held: dict[int, tuple[int, int, int, int]] | None = None,
    round_: int = 0,
    turn: int = 0,
    in_turn: int = 0,
    phase: int = S.PH_TURN,
) -> np.ndarray:
    """A position in phase PH_TURN (rules packed in r).

    ``traders``: location -> seat, as a dict ``{"3C": 0, "3T1": 1}`` or a text
    ``"3C:A 3T1:B"`` (seats A-D); the rest of each seat's traders are in reserve.
    ``order``: the city-states 1-8 from most to least important (default 1..8). ``display``:
    per scored position, the tile types above it (0 economy .. 3 religion; default none).
    ``held``: seat -> tiles per type. The bag holds the tiles nobody has.
    """
    players = int(r[R.P_PLAYERS])
    s = S.new_state()
    v = S.view(s)
    v.scal[S.S_END_REASON] = -1
    v.loc[:] = S.EMPTY
    if isinstance(traders, str):
        items = {}
        for tok in traders.split():
            name, _, who = tok.partition(":")
            items[name] = "ABCD".index(who.strip().upper())
        traders = items
    v.reserve[:players] = int(r[R.P_TRADERS])
    for name, who in traders.items():
        q = B.parse_loc(name)
        if v.loc[q] != S.EMPTY:
            raise ValueError(f"{name} given twice")
        v.loc[q] = who
        v.reserve[who] -= 1
        if v.reserve[who] < 0:
            raise ValueError(f"seat {who} has more traders on the board than it owns")
    recount(s)
    states = order or tuple(range(1, 9))
    if sorted(states) != list(range(1, 9)):
        raise ValueError("order must list the city-states 1-8 once each")
    for p, st in enumerate(states):
        v.order[p] = st - 1
        v.pos[st - 1] = p
    v.bag[:] = int(r[R.P_TILES_PER_TYPE])
    for p, types in enumerate(display or []):
        for t in types:
            v.display[p, t] += 1
            v.bag[t] -= 1
    for who, counts in (held or {}).items():
        for t, n in enumerate(counts):
            v.held[who, t] = n
            v.bag[t] -= n
    if (v.bag < 0).any():
        raise ValueError("more tiles of a type than the bag holds")
    v.scal[S.S_BAG] = int(v.bag.sum())
    v.scal[S.S_FIRST] = first
    v.scal[S.S_ROUND] = round_
    v.scal[S.S_TURN] = turn
    v.scal[S.S_IN_TURN] = in_turn
    v.scal[S.S_SEAT] = (first + in_turn) % players if seat is None else seat
    v.scal[S.S_PHASE] = phase
    v.scal[S.S_PLACED] = int(r[R.P_SETUP_TOTAL])  # setup is over
    return s
