"""Seat compensation in Sumeria (issue #38; docs/rules-sumeria.md, "Designer's additions"):
`seat_traders`, traders a seat places at setup beyond initial_traders, beside `seat_points`
(tests/test_compensation_fields.py). The default is the rulebook's: the kernel sees the same
rules array and the setup goes round in turn order as before (the rows' digests stay as
recorded: tests/test_bit_identical.py); with the field the placement goes on, skipping the
seats that are done; the seat's traders and win rate rise on the same games; the trace header
shows the field (checked mode with every field: tests/test_compensation_fields.py).

The game is 6 whole rounds ("6 rounds are played"): no end condition can trigger inside a
round, so there is no end-of-round option (unlike Sunken City's `finish_round`)."""

from __future__ import annotations

import pytest

from simcore.frame.rng import new_stream
from simcore.games.sumeria import engine as E
from simcore.games.sumeria import state as S
from simcore.games.sumeria.engine_invariants import check_invariants
from simcore.games.sumeria.rules import SumeriaRules, pack
from tests import compensation_kit as kit

GAME = "sumeria"


def test_the_default_is_the_rulebook_and_packs_the_same():
    kit.default_packs_the_same(GAME, "seat_traders", pack)


@pytest.mark.parametrize("extra", [(0, 2, 0), (1, 0, 3)])
def test_the_setup_goes_on_for_the_seats_with_more_traders(extra):
    """Each seat places 8 + its extra, one at a time in turn order from the first player; a
    seat that has placed all its traders is skipped; then the first player begins."""
    r = pack(SumeriaRules(seat_traders=extra), 3)
    for seed in range(6):
        s = S.new_state()
        E.setup(s, r, S.TRACE.new(), new_stream(seed, 0))
        v = S.view(s)
        first = int(v.scal[S.S_FIRST])
        placed = [0, 0, 0]
        order = []
        q = 0
        while v.scal[S.S_PHASE] == S.PH_SETUP:
            seat = int(v.scal[S.S_SEAT])
            order.append(seat)
            while v.loc[q] != S.EMPTY:
                q += 1
            assert E.do_place(s, r, S.TRACE.new(), seat, q) == 0
            placed[seat] += 1
            assert check_invariants(s, r) == 0
        assert placed == [8 + k for k in extra]
        assert list(v.reserve[:3]) == [6 - k for k in extra]
        assert v.scal[S.S_SEAT] == first
        # the rounds of the rulebook first, then the seats with more, in turn order
        seats = [(first + k) % 3 for k in range(3)]
        expect = seats * 8
        for k in range(max(extra)):
            expect += [t for t in seats if extra[t] > k]
        assert order == expect


def test_a_trader_more_at_setup_raises_the_seats_presence_and_win_rate():
    """On the same 3,000 games (seed 38, three default players), seat 1 placing two traders
    more at setup: more of its traders on the board at the end, and its win rate up by more
    than 3 standard errors."""
    spec, base = kit.rows_of(GAME, 3, {})
    _, more = kit.rows_of(GAME, 3, {"seat_traders": "0,2,0"})
    on0, on1 = kit.col(spec, base, "traders_on_board_1"), kit.col(spec, more, "traders_on_board_1")
    assert on1.mean() > on0.mean(), (on0.mean(), on1.mean())
    kit.win_rate_rises(spec, base, more, 1)


def test_the_trace_header_shows_the_seat_traders():
    kit.header_shows(GAME, "seat_traders", "0,0,1")
