"""Sunken City positions built from text diagrams, for tests and docs (`from_diagram`).

They live beside the engine rather than in state.py because a position is set up by the
engine's own `setup` first (state.py imports nothing of its game but board and rules).
"""

from __future__ import annotations

import numpy as np

from simcore.games.sunken_city import board as B
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine import recount_near, setup


def from_diagram(
    r: np.ndarray,
    diagram: str,
    *,
    adventurers: dict[int, tuple[int, int] | None] | None = None,
    spirit: tuple[int, int] | None = None,
    treasures: dict[int, dict[int, int]] | None = None,
    chips: dict[int, int] | None = None,
    stacks: tuple[int, ...] | None = None,
    draw_space: int = 0,
    supply: int | None = None,
    seat: int = 0,
    hourglass: bool = False,
    round_: int = 0,
    phase: int = 0,
    grotto: int | None = None,
) -> np.ndarray:
    """Build a flat state from a 9-line diagram (rules packed in r).

    '.' water; a letter = a street (the same letter on two orthogonally adjacent squares is one
    2-square street; with 1-square streets each letter square is its own street); a digit =
    house 1-9, '0' = house 10. Adventurers and the spirit are given by a square (row, col) of
    the piece they stand on (None: in the village; default: village). ``treasures`` maps seat
    -> {treasure value (12 = chest): status}; the others start house side up. ``stacks`` gives
    the streets on spaces 1..6 (default: what is left, with one on each of spaces 2-5); the rest
    are in the box. The spirit defaults to house 10 (basic game); in the advanced game to
    grotto space ``grotto`` (default 10) while ``phase`` says in which phase the game is.
    """
    players = int(r[R.P_PLAYERS])
    s = S.new_state()
    setup(s, r, S.TRACE.new())
    v = S.view(s)
    v.sq_piece[:] = S.WATER
    v.piece_sq[:] = -1
    rows = [ln.strip() for ln in diagram.strip("\n").splitlines() if ln.strip()]
    if len(rows) != B.SIZE or any(len(row) != B.SIZE for row in rows):
        raise ValueError("diagram must be 9 lines of 9 characters")
    letters: dict[str, list[int]] = {}
    for rr, line in enumerate(rows):
        for cc, ch in enumerate(line):
            q = B.square(rr, cc)
            if ch == ".":
                continue
            if ch.isdigit():
                h = 10 if ch == "0" else int(ch)
                slot = S.HOUSE_BASE + h - 1
                if v.piece_sq[slot, 0] != -1:
                    raise ValueError(f"house {h} drawn twice")
                v.piece_sq[slot, 0] = q
                v.sq_piece[q] = slot
            elif ch.isalpha():
                letters.setdefault(ch, []).append(q)
            else:
                raise ValueError(f"unknown diagram character {ch!r}")
    slot = 0
    two = int(r[R.P_STREET_SQUARES]) == 2
    for ch, sqs in letters.items():
        groups = [sqs] if two else [[q] for q in sqs]
        for g in groups:
            if two and (len(g) != 2 or int(g[1]) not in B.ORTH[g[0]]):
                raise ValueError(f"street {ch!r} must cover two adjacent squares")
            for k, q in enumerate(g):
                v.piece_sq[slot, k] = q
                v.sq_piece[q] = slot
            slot += 1
    on_board = slot
    recount_near(s)
    total = int(r[R.P_TOTAL_STREETS])
    v.stacks[:] = 0
    if stacks is None:
        rest = total - on_board
        v.stacks[1:5] = 1 if rest >= 4 else 0
        v.stacks[0] = rest - int(v.stacks[1:5].sum())
    else:
        v.stacks[: len(stacks)] = stacks
    box = total - on_board - int(v.stacks.sum())
    if box < 0:
        raise ValueError("more streets on the board and the stacks than exist")
    v.scal[S.S_STREETS_IN_BOX] = box
    v.scal[S.S_DRAW_SPACE] = draw_space

    def slot_at(rc):
        q = B.square(*rc)
        if v.sq_piece[q] == S.WATER:
            raise ValueError(f"no piece at {rc}")
        return v.sq_piece[q]

    v.adv[:] = S.VILLAGE
    for seat_, rc in (adventurers or {}).items():
        v.adv[seat_] = S.VILLAGE if rc is None else slot_at(rc)
    advanced = int(r[R.P_ADVANCED]) == 1
    if spirit is not None:
        v.scal[S.S_SPIRIT_SLOT] = slot_at(spirit)
        v.scal[S.S_GROTTO_SPACE] = 0 if advanced else v.scal[S.S_GROTTO_SPACE]
    elif advanced:
        v.scal[S.S_SPIRIT_SLOT] = -1
        v.scal[S.S_GROTTO_SPACE] = 10 if grotto is None else grotto
    else:
        v.scal[S.S_SPIRIT_SLOT] = S.HOUSE_BASE + 9
    if advanced:
        v.scal[S.S_PHASE] = phase
    for seat_, tmap in (treasures or {}).items():
        for value, status in tmap.items():
            v.treasure[seat_, S.CHEST if value == 12 else value - 1] = status
    for seat_, n in (chips or {}).items():
        v.chips[seat_] = n
    if supply is not None:
        v.scal[S.S_CHIP_SUPPLY] = supply
    else:
        v.scal[S.S_CHIP_SUPPLY] = max(
            int(v.scal[S.S_CHIP_SUPPLY]) - int(v.chips[:players].sum()), 0
        )
    v.scal[S.S_SEAT] = seat
    v.scal[S.S_HOURGLASS] = int(hourglass)
    v.scal[S.S_ROUND] = round_
    v.scal[S.S_TURN] = round_ * players + seat
    return s
