"""Secrets of the Sea positions from text diagrams, for tests and docs: a board drawn as 10 rows
of tile tokens (state.tile_token), the tiles held, the bonus tiles and what is known."""

from __future__ import annotations

import numpy as np

from simcore.games.secrets_of_the_sea import board as B
from simcore.games.secrets_of_the_sea import rules as R
from simcore.games.secrets_of_the_sea import state as S
from simcore.games.secrets_of_the_sea.engine import recount, setup_fixed


def from_diagram(
    r: np.ndarray,
    diagram: str,
    *,
    held: dict[int, list[str]] | None = None,
    bonus: dict[str, int] | None = None,
    seat: int = 0,
    wreck: list[str] | None = None,
    known: dict[tuple[int, int], int] | None = None,
) -> np.ndarray:
    """Build a flat state from a diagram of 10 lines (rows 1..10) of 5 tokens (columns 0..4).

    Tokens as in `tile_token`; '.' is an empty space. Each token takes an unused tile of that
    description from the mix of its region (light rows 1-5, dark rows 6-10). ``held`` maps
    seat -> tokens of tiles in front of that seat (board or wreck tiles, any region);
    ``wreck`` lists the wreck tiles still at the wreck (default: all not held); ``bonus`` maps
    a bonus name (rules.BONUS_NAMES) -> seat; ``known`` maps (column, row) -> LIT / FRONT.
    Tiles of the mix not placed anywhere are OUT of play. Held counts and the hidden-tile
    tables are recomputed; the turn begins for ``seat``.
    """
    n_tiles = int(r[R.P_N_TILES])
    s = S.new_state()
    setup_fixed(s, r)
    v = S.view(s)
    v.space[:] = S.EMPTY
    v.owner[:n_tiles] = S.OUT
    used: set[int] = set()

    def pick(token: str, ids: range) -> int:
        for t in ids:
            if t not in used and S.tile_token(r, t) == token:
                used.add(t)
                return t
        raise ValueError(f"no unused tile {token!r} left in the mix")

    rows = [ln.split() for ln in diagram.strip("\n").splitlines() if ln.strip()]
    if len(rows) != 10 or any(len(row) != 5 for row in rows):
        raise ValueError("diagram must be 10 lines of 5 tokens")
    for i, row in enumerate(rows):
        rr = i + 1
        ids = (
            range(0, B.PER_REGION) if rr <= B.LIGHT_ROWS else range(B.PER_REGION, 2 * B.PER_REGION)
        )
        for c, tok in enumerate(row):
            if tok == ".":
                continue
            t = pick(tok, ids)
            v.space[B.space_of(c, rr)] = t
            v.owner[t] = S.ON_BOARD
    for seat_, toks in (held or {}).items():
        for tok in toks:
            ids = range(R.WRECK_BASE, n_tiles) if tok.startswith("W") else range(R.WRECK_BASE)
            v.owner[pick(tok, ids)] = seat_
    for t in range(R.WRECK_BASE, n_tiles):
        if t not in used and wreck is None:
            v.owner[t] = S.ON_BOARD
    for tok in wreck or []:
        v.owner[pick(tok, range(R.WRECK_BASE, n_tiles))] = S.ON_BOARD
    for name, seat_ in (bonus or {}).items():
        v.bonus[R.BONUS_NAMES.index(name)] = seat_
    for (c, rr), k in (known or {}).items():
        v.known[B.space_of(c, rr)] = k
    recount(s, r)
    v.scal[S.S_SEAT] = seat
    v.scal[S.S_TURN] = seat
    players = int(r[R.P_PLAYERS])
    assert 0 <= seat < players
    return s
