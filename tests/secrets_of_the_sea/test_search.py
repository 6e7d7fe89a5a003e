"""Secrets of the Sea's `search` player (simcore/games/secrets_of_the_sea/search_player.py): legal
in
checked mode, it beats a weak base player, and its simulations see only what a seat can see
(search_hide). Determinism across threads and "budget 0 = the base player" are the
conformance suite's (tests/conformance/test_search.py, every game)."""

from __future__ import annotations

import numpy as np

from simcore import get_game
from simcore.frame.rng import new_stream
from simcore.games.secrets_of_the_sea import board as B
from simcore.games.secrets_of_the_sea import state as S
from simcore.games.secrets_of_the_sea.engine import lamp_kind, recount
from simcore.games.secrets_of_the_sea.engine_invariants import check_invariants
from simcore.games.secrets_of_the_sea.search_player import search_hide
from simcore.run.runner import replay_game
from tests.conformance.cases import first_wins, search_rows

GAME = "secrets-of-the-sea"
SEARCH = "search:budget={},base=ev"


def rows(budget, games, seed=5, threads=1, checked=False, others="ev,ev"):
    lineup = SEARCH.format(budget) + "," + others
    return search_rows(GAME, 3, lineup, games, seed=seed, threads=threads, checked=checked)


def test_checked_mode_finds_nothing_and_the_replay_agrees():
    df = rows(4, 6, checked=True, others="balanced,random")
    assert (df.error == 0).all()
    game = replay_game(
        get_game(GAME), 3, 5, 2, policies=SEARCH.format(4) + ",balanced,random", rotate_seats=True
    )
    assert game.end["winner"] == df.winner.iloc[2]


def test_search_hide_keeps_what_a_seat_sees():
    """On positions of a real game: the re-dealt board passes the invariants, every space
    keeps what all players know of it (empty, lit with its kind, a front seen), the hidden
    tiles stay in their region, and the unseen tiles do move."""
    game = replay_game(get_game(GAME), 3, 3, 0, policies="ev,ev,ev")
    r = game.r
    moved = 0
    rng = new_stream(11, 0)
    for snap in game.snaps[5::7]:
        s = snap.astype(np.int64).copy()
        recount(s, r)  # a snapshot is int32: the bitmask of held tiles lost its high bits
        before = s.copy()
        search_hide(s, r, 0, rng)
        assert check_invariants(s, r) == 0
        assert (s[: S.O_SPACE] == before[: S.O_SPACE]).all()
        for q in range(B.N_SPACES):
            t0, t1 = before[S.O_SPACE + q], s[S.O_SPACE + q]
            k = before[S.O_KNOWN + q]
            assert s[S.O_KNOWN + q] == k
            if t0 == S.EMPTY or k == S.FRONT:
                assert t1 == t0
                continue
            assert t1 != S.EMPTY and (t1 < B.PER_REGION) == (t0 < B.PER_REGION)
            if k == S.LIT:
                assert lamp_kind(r, t1) == lamp_kind(r, t0)
            moved += t1 != t0
        for g in range(2):  # the same tiles in each region
            sp = B.REGION_SPACES[g]
            assert sorted(s[S.O_SPACE + sp]) == sorted(before[S.O_SPACE + sp])
        assert (s[S.O_OWNER : S.O_HID_N] == before[S.O_OWNER : S.O_HID_N]).all()
        assert (s[S.O_HID_N : S.O_UNLIT] == before[S.O_HID_N : S.O_UNLIT]).all()
    assert moved > 20


def test_search_hide_is_uniform_over_a_lit_kind():
    """A lit space draws each hidden tile of its kind equally often (here: the exchange tiles
    and seagrass of the light region at the start, one space lit)."""
    game = replay_game(get_game(GAME), 3, 3, 0, policies="ev,ev,ev")
    r = game.r
    s0 = game.snaps[0].astype(np.int64).copy()
    q = B.REGION_SPACES[0, 7]
    t = s0[S.O_SPACE + q]
    kind = lamp_kind(r, t)
    s0[S.O_KNOWN + q] = S.LIT
    same = [u for u in range(B.PER_REGION) if lamp_kind(r, u) == kind]
    counts = dict.fromkeys(same, 0)
    rng = new_stream(12, 0)
    n = 3000
    for _ in range(n):
        s = s0.copy()
        search_hide(s, r, 1, rng)
        counts[int(s[S.O_SPACE + q])] += 1
    expect = n / len(same)
    assert all(abs(c - expect) < 5 * (expect**0.5) for c in counts.values()), counts


def test_search_beats_its_base_player():
    """The search corrects its base player's stopping: on a base that takes every lit tile,
    worthless seagrass included (stop-at-value, target 0), against two of them, 3 players,
    seats rotated, 300 games, seed 1, budget 64 wins clearly more games than the base itself
    (88 and 136 of 300 when written). Against `ev` the search's edge (+4.7 points) is too
    small to show in a test this short (docs/policies-secrets-of-the-sea.md)."""
    weak = "stop-at-value:target=0"

    def wins(budget):
        return first_wins(
            GAME, 3, f"search:budget={budget},start=0,base=stop-at-value,target=0,{weak},{weak}"
        )

    base, strong = wins(0), wins(64)
    assert strong >= base + 25, (base, strong)
