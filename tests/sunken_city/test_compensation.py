"""Seat compensation in Sunken City (issue #38; docs/rules-sunken-city.md, "Designer's
additions"): chips a seat starts with, points added to a seat's final score, and whether the
round is finished when the game ends. The defaults are the rulebook's (the rows' digests and the
rules hash stay as recorded: tests/test_bit_identical.py, tests/test_honest_output.py); each
field moves a seat's win rate the way it should, on the same seed; the trace header shows the
fields that are set (checked mode with every field, basic and advanced game:
tests/test_compensation_fields.py)."""

from __future__ import annotations

import numpy as np
import pytest

from simcore import get_game
from simcore.base.errors import RulesError
from tests.conformance.cases import play_rows, resolve

GAME = "sunken-city"
SEED = 38


def _rows(players, overrides, policy="balanced", games=4000):
    rules, seats = resolve(GAME, players, [], overrides, policy=policy)
    return get_game(GAME), play_rows(GAME, players, rules, seats, SEED, 0, games, True, False)


def _col(spec, rows, name):
    return rows[:, spec.columns.index(name)]


def _win_rate(spec, rows, seat) -> tuple[float, float]:
    """The seat's outright win rate and its standard error."""
    won = (_col(spec, rows, "winner") == seat).astype(float)
    return won.mean(), won.std() / np.sqrt(len(won))


def test_the_defaults_are_the_rulebook_and_leave_the_rules_as_they_were():
    spec = get_game(GAME)
    rules = spec.resolve_rules([], {}, None, 3)
    assert (rules.seat_chips, rules.seat_points, rules.seat_value) == ((), (), ())
    assert rules.finish_round
    resolved = spec.resolved(rules, 3)
    assert not {"seat_chips", "seat_points", "seat_value", "seat_tiebreak", "finish_round"} & set(
        resolved
    )
    zeros = spec.resolve_rules([], {"seat_points": "0,0,0"}, None, 3)  # set, so shown
    assert spec.resolved(zeros, 3)["seat_points"] == [0, 0, 0]
    set_ = spec.resolve_rules([], {"seat_points": "0,1", "finish_round": "false"}, None, 3)
    shown = spec.resolved(set_, 3)
    assert shown["seat_points"] == [0, 1] and shown["finish_round"] is False
    assert spec.rules_hash(set_, 3) != spec.rules_hash(rules, 3)


@pytest.mark.parametrize(
    "overrides,why",
    [
        ({"seat_chips": "0,1", "chips": "false"}, "seat_chips needs the chips in play"),
        ({"seat_chips": "5,5"}, "seat_chips hands out 10 chips but the supply holds 8"),
        ({"seat_points": "0,0,0,1"}, "seat_points gives seat 3 an amount, but the game has 3"),
        ({"seat_points": "0,0,0,0,0"}, "seat_points gives 5 seats, the game has at most 4"),
        ({"seat_points": "0,99"}, "each value of seat_points must be -50 to 50"),
        ({"seat_tiebreak": "0,10"}, "each value of seat_tiebreak must be 0 to 9"),
    ],
)
def test_impossible_compensation_is_one_sentence(overrides, why):
    with pytest.raises(RulesError, match=why):
        get_game(GAME).resolve_rules([], overrides, None, 3)


def test_a_point_for_a_seat_raises_its_win_rate_and_lowers_the_others():
    """Seat 1 (the weakest with three `balanced`, docs/rules-sunken-city.md) gets a point: the
    same games (same seed) are scored with one more treasure for it."""
    spec, base = _rows(3, {})
    _, more = _rows(3, {"seat_points": "0,1,0"})
    assert (_col(spec, more, "rounds") == _col(spec, base, "rounds")).all()  # the same games
    before, se = _win_rate(spec, base, 1)
    after, _ = _win_rate(spec, more, 1)
    assert after - before > 0.08 and after - before > 10 * se
    assert (_col(spec, more, "score_1") == _col(spec, base, "score_1") + 1).all()
    for seat in (0, 2):
        assert _win_rate(spec, more, seat)[0] < _win_rate(spec, base, seat)[0]


def test_treasure_value_breaks_ties_for_the_seat():
    """Under 'count' the value is the tie-break: a little for seat 1 wins it the games it
    tied on treasures (a finer step than a point), on the same games."""
    spec, base = _rows(3, {})
    _, more = _rows(3, {"seat_value": "0,5,0"})
    assert (_col(spec, more, "score_1") == _col(spec, base, "score_1")).all()
    assert (_col(spec, more, "tiebreak_1") == _col(spec, base, "tiebreak_1") + 5).all()
    before, se = _win_rate(spec, base, 1)
    after, _ = _win_rate(spec, more, 1)
    point, _ = _win_rate(spec, _rows(3, {"seat_points": "0,1,0"})[1], 1)
    assert 3 * se < after - before < point - before


def test_a_tie_rank_gives_the_seat_its_shared_wins_and_nothing_else():
    """seat_tiebreak: a game tied in treasures and value (a shared win under the rulebook) goes
    to the highest tie rank among the tied seats; every other game keeps its winner, and the
    scores and tie-breaks stay as they were (the same games)."""
    spec, base = _rows(3, {})
    _, ranked = _rows(3, {"seat_tiebreak": "0,2,1"})
    for name in ("score_1", "tiebreak_1", "rounds"):
        assert (_col(spec, ranked, name) == _col(spec, base, name)).all()
    w0, w1 = _col(spec, base, "winner"), _col(spec, ranked, "winner")
    m0, m1 = _col(spec, base, "win_mask"), _col(spec, ranked, "win_mask")
    assert (w1[w0 >= 0] == w0[w0 >= 0]).all()
    shared = w0 < 0
    assert shared.mean() > 0.03  # enough shared wins with three `balanced` for the test
    # the highest rank among the seats that shared: seat 1 when it shared, else seat 2
    expect = np.where(m0 & 0b010, 1, np.where(m0 & 0b100, 2, 0))
    assert (w1[shared] == expect[shared]).all()
    assert (m1[shared] == 1 << expect[shared]).all()
    before, se = _win_rate(spec, base, 1)
    after, _ = _win_rate(spec, ranked, 1)
    assert after - before > 3 * se


def test_equal_tie_ranks_still_share_the_win():
    spec, base = _rows(3, {}, games=2000)
    _, same = _rows(3, {"seat_tiebreak": "1,1,1"}, games=2000)
    for name in ("winner", "win_mask"):
        assert (_col(spec, same, name) == _col(spec, base, name)).all()
    _, two = _rows(3, {"seat_tiebreak": "0,1,1"}, games=2000)
    m0, w2 = _col(spec, base, "win_mask"), _col(spec, two, "winner")
    both = m0 & 0b110 == 0b110  # seats 1 and 2 tied: still shared
    assert both.any() and (w2[both] == -1).all()
    # seat 0 tied with one rank-1 seat: it loses
    alone0 = (m0 & 0b001).astype(bool) & (m0 & 0b110 != 0) & ~both
    assert alone0.any() and (w2[alone0] >= 1).all()


def test_chips_at_the_start_help_the_seat_that_holds_them():
    spec, base = _rows(3, {}, games=8000)
    _, more = _rows(3, {"seat_chips": "0,3,0"}, games=8000)
    before, se = _win_rate(spec, base, 1)
    after, _ = _win_rate(spec, more, 1)
    assert after - before > 3 * se, (before, after, se)
    assert _col(spec, more, "chips_used_1").sum() > _col(spec, base, "chips_used_1").sum()


def test_without_finishing_the_round_the_game_ends_with_the_turn():
    spec, base = _rows(3, {}, games=2000)
    _, now = _rows(3, {"finish_round": "false"}, games=2000)
    turns_b, turns_n = _col(spec, base, "turns"), _col(spec, now, "turns")
    assert (turns_b % 3 == 0).all()  # the rulebook: every round finished
    assert (turns_n % 3 != 0).any() and turns_n.mean() < turns_b.mean()
    # the round begun counts as played: rounds = ceil(turns / players)
    assert (_col(spec, now, "rounds") == -(-turns_n // 3)).all()
    # the first seat loses the turns it would have had... and the later seats their last one
    assert not np.array_equal(_col(spec, now, "winner"), _col(spec, base, "winner"))


def test_the_trace_header_shows_the_compensation():
    spec = get_game(GAME)
    over = {"seat_chips": "0,0,1", "seat_points": "1", "seat_tiebreak": "0,1"}
    rules, seats = resolve(GAME, 3, [], over, "balanced")
    tr = spec.replay(rules, 3, seats, SEED, 0, rotate=False, checked=True)
    assert tr.header["rules"]["seat_chips"] == [0, 0, 1]
    assert tr.header["rules"]["seat_tiebreak"] == [0, 1]
    assert tr.header["rules"]["seat_points"] == [1]
    assert tr.turns[0]["state"]["chips"][:3] == [0, 0, 1]
