"""Seat compensation in Secrets of the Sea (issue #38; docs/rules-secrets-of-the-sea.md,
"Designer's additions"): `seat_seagrass`, seagrass finds a seat needs fewer for the seagrass
bonus tile (the rulebook's "three times"), beside `seat_points`
(tests/test_compensation_fields.py). The default is the rulebook's:
the kernel sees the same rules array (the rows' digests stay as recorded:
tests/test_bit_identical.py); the rule works in a position; a seat's bonus tiles and win rate
rise with it on the same games; the trace header shows it (checked mode with every field:
tests/test_compensation_fields.py).

The game ends at once when a kind of tile runs out ("The game ends immediately"), so it has no
end-of-round option (unlike Sunken City's `finish_round`)."""

from __future__ import annotations

import numpy as np
import pytest

from simcore.games.secrets_of_the_sea import state as S
from simcore.games.secrets_of_the_sea.rules import SecretsRules, pack
from tests import compensation_kit as kit
from tests.secrets_of_the_sea.test_secrets_rules import Game

GAME = "secrets-of-the-sea"


def test_the_default_is_the_rulebook_and_packs_the_same():
    kit.default_packs_the_same(GAME, "seat_seagrass", pack)


def test_the_seagrass_threshold_less_the_seat_seagrass():
    """Only the seagrass bonus (the last) changes, for the seats named."""
    from simcore.games.secrets_of_the_sea.rules import N_BONUS, R_SEAT_THR

    r = pack(SecretsRules(seat_seagrass=(0, 1, 2)), 3)
    need = r[R_SEAT_THR : R_SEAT_THR + 4 * N_BONUS].reshape(4, N_BONUS)
    assert need.tolist() == [
        [3, 3, 3, 3, 3, 2, 3],
        [3, 3, 3, 3, 3, 2, 2],
        [3, 3, 3, 3, 3, 2, 1],
        [3, 3, 3, 3, 3, 2, 3],
    ]


@pytest.mark.parametrize("fewer,gets", [((), False), ((1,), True), ((0, 1), False)])
def test_a_seat_with_a_seagrass_head_start_takes_the_bonus_sooner(fewer, gets):
    """Seat 0 has found seagrass once and finds it again: with one find fewer
    (seat_seagrass=1) that brings the seagrass bonus (5 points); by the rulebook (or with the
    head start for seat 1) it does not. The other bonuses are as before: two shells bring
    nothing."""
    g = Game(held={0: ["g", "S1"]}, rules=SecretsRules(seat_seagrass=fewer))
    g.roll(4, 4)
    g.move(0, 0)
    g.take()
    assert g.held(0) == ["S1", "g", "g"]
    assert (S.view(g.s).bonus[6] == 0) == gets
    assert S.view(g.s).bonus[0] == -1
    assert g.scores()[0] == 1 + (5 if gets else 0)


def test_the_seat_seagrass_raises_the_seats_bonus_tiles_and_win_rate():
    """On the same 3,000 games (seed 38, three default players), seat 2 (the weakest, 29.8%)
    needing to find seagrass only once for its bonus: its bonus tiles rise (1.27 -> 2.18 a
    game), and its win rate by more than 3 standard errors (measured 29.8% -> 36.6%). One find
    fewer changes nothing with these players: they take seagrass only when it brings the
    bonus, so they never hold the first find."""
    spec, base = kit.rows_of(GAME, 3, {})
    _, more = kit.rows_of(GAME, 3, {"seat_seagrass": "0,0,2"})
    b0, b1 = kit.col(spec, base, "bonus_tiles_2"), kit.col(spec, more, "bonus_tiles_2")
    assert b1.mean() > b0.mean() + 0.5, (b0.mean(), b1.mean())
    _, one = kit.rows_of(GAME, 3, {"seat_seagrass": "0,0,1"})
    assert np.array_equal(kit.col(spec, one, "winner"), kit.col(spec, base, "winner"))
    kit.win_rate_rises(spec, base, more, 2)
    # the others lose: every other seat's rate falls
    for seat in (0, 1):
        assert (kit.col(spec, more, "winner") == seat).mean() < (
            kit.col(spec, base, "winner") == seat
        ).mean()


def test_the_trace_header_shows_the_seat_seagrass():
    kit.header_shows(GAME, "seat_seagrass", "0,0,2")
