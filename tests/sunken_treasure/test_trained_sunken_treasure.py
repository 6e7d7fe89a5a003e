"""Sunken Treasure's `trained` player (simcore/games/sunken_treasure/trained_player.py): its
features read only what the deciding seat may see (the order of the decks and a card stolen
between two other seats are not), each candidate's afterstate reads as the rules say, and the
shipped models (their checksums and provenance) beat `random`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simcore import get_game, simulate
from simcore.base.trained_model import shipped_path
from simcore.frame.rng import new_stream
from simcore.games import sunken_treasure
from simcore.games.sunken_treasure import engine as E
from simcore.games.sunken_treasure import state as S
from simcore.games.sunken_treasure import trained_player as T
from simcore.games.sunken_treasure.board import LOCKED_CHEST, SHARK, UNLOCKED_BOX
from simcore.games.sunken_treasure.engine_options import (
    K_BANK,
    K_CLAIM,
    K_SEARCH,
    K_SURFACE,
    list_options,
)
from simcore.games.sunken_treasure.rules import SunkenTreasureRules, pack
from tests.sunken_treasure.test_treasure_rules import Game

PACKAGE = Path(sunken_treasure.__file__).parent
SHIPPED = [n for n in range(1, 5) if shipped_path(PACKAGE, n).is_file()]
W = T.TRAINED_WIDTH


def features(g: Game, seat: int) -> dict[int, np.ndarray]:
    """Each legal option code of the seat's turn -> its feature vector."""
    x = np.zeros(64, dtype=np.int64)
    n = list_options(g.s, g.r, seat, x, 0, True)
    xf = np.zeros(n * W)
    T.trained_features(g.s, g.r, seat, x, 0, n, xf, 0)
    return {int(x[i]): xf[i * W : (i + 1) * W] for i in range(n)}


def all_features(g: Game, seat: int) -> np.ndarray:
    return np.concatenate([v for _, v in sorted(features(g, seat).items())])


def test_the_order_of_the_decks_is_not_read():
    g = Game(players=3).played().give(0, LOCKED_CHEST).sharks(2).treasure(0, 2000)
    before = all_features(g, 0)
    rng = np.random.default_rng(5)
    for off, n_idx in ((S.O_ITEM_DECK, S.S_ITEM_N), (S.O_ATT_DECK, S.S_ATT_N)):
        n = int(g.s[n_idx])
        g.s[off : off + n] = rng.permutation(g.s[off : off + n])
    n = int(g.s[S.S_TRE_N])
    g.s[S.O_TRE_DECK : S.O_TRE_DECK + n] = g.s[S.O_TRE_DECK : S.O_TRE_DECK + n][::-1].copy()
    assert np.array_equal(all_features(g, 0), before)


def test_a_card_stolen_between_two_other_seats_is_not_read():
    """Seat 1 robbed seat 2 of one card: seat 0 knows only that a card moved."""
    seen = []
    for stolen in (1000, 5000):
        g = Game(players=3).played()
        g.treasure(1, 2000, banked=True).treasure(2, 1000, 5000, banked=True)
        kind = {1000: 0, 5000: 3}[stolen]
        g.seat(2).banked[kind] -= 1
        g.seat(1).banked[kind] += 1
        for k in (1, 2):
            E.recount(g.s, g.r, k)
        g.seat(1).counters[S.C_THEFTS_WON] += 1
        g.seat(2).counters[S.C_ROBBED] += 1
        seen.append(all_features(g, 0))
    assert np.array_equal(seen[0], seen[1])
    g = Game(players=2).played().treasure(1, 5000, banked=True)
    assert features(g, 0)[K_SEARCH * 8][T.F_LEADER] == 5000 / 20000  # two players: exact


def test_afterstates_read_as_the_rules_say():
    g = Game(players=2).played().give(0, UNLOCKED_BOX).treasure(0, 5000, 3000)
    dive = features(g, 0)
    assert dive[K_CLAIM * 8 + UNLOCKED_BOX][T.F_CARRIED] > 8000 / 20000  # a card more
    surface = dive[K_SURFACE * 8]
    assert (surface[T.F_UP], surface[T.F_HELD], surface[T.F_SAFETY]) == (1.0, 0.0, 0.0)
    assert surface[T.F_CARRIED] == 8000 / 20000  # up with it, not yet banked
    g = Game(players=2).played().treasure(0, 10000, 5000, 3000, 2000).up(0)
    g.treasure(0, 1000, banked=True)
    bank = features(g, 0)[K_BANK * 8]
    assert (bank[T.F_BANKED], bank[T.F_CARRIED], bank[T.F_WINS]) == (21000 / 20000, 0.0, 1.0)
    assert bank[T.F_KIND + K_BANK] == 1.0 and bank[T.F_KIND :].sum() == 1.0


def test_a_search_on_two_sharks_risks_the_carried_treasure():
    g = Game(players=2).played().treasure(0, 5000).sharks(2)
    search = features(g, 0)[K_SEARCH * 8]
    p = search[T.F_SHARK_NEXT]
    deck = g.s[S.O_ITEM_DECK : S.O_ITEM_DECK + int(g.s[S.S_ITEM_N])]
    assert p == pytest.approx(np.mean(deck == SHARK))
    assert search[T.F_CARRIED] == pytest.approx(5000 / 20000 * (1 - p))
    assert search[T.F_UP] == pytest.approx(p)


def test_the_solo_clock_counts_the_turn_limit():
    r = pack(SunkenTreasureRules(), 1)
    s = S.new_state()
    E.setup(s, r, S.TRACE.new(), new_stream(3, 0))
    s[S.S_TURN] = 10
    x = np.array([K_SEARCH * 8])
    xf = np.zeros(W)
    T.trained_features(s, r, 0, x, 0, 1, xf, 0)
    assert xf[T.F_CLOCK] == 10 / 40 and xf[T.F_DIVERS] == 0.0


@pytest.mark.parametrize("players", [n for n in SHIPPED if n > 1])
def test_the_shipped_model_beats_random(players):
    """A statistical check with a fixed seed: the trained seat against random players."""
    spec = get_game("sunken-treasure")
    lineup = ",".join(["trained", *["random"] * (players - 1)])
    res = simulate(spec, players, 300, policies=lineup, rotate_seats=True, seed=4)
    assert res.summary.policy_wins[0] / res.summary.policy_games[0] > 0.8
