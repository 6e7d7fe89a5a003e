"""Seat compensation in Sunken Treasure (issue #38; docs/rules-sunken-treasure.md, "Designer's
additions"): `seat_boxes`, Unlocked Boxes a seat starts with (from the Item deck), beside
`seat_thousands` (tests/test_compensation_fields.py). The default is the rulebook's: the kernel
sees the same rules array (the rows' digests stay as recorded: tests/test_bit_identical.py);
the cards are dealt from the deck at setup and are claimed like any Unlocked Box; the seat
opens more containers and its win rate rises on the same games; the trace header shows the
field (checked mode with every field: tests/test_compensation_fields.py).

The game ends as soon as a player has the target banked (GAME-DATA: at the end of that turn),
so it has no end-of-round option (unlike Sunken City's `finish_round`)."""

from __future__ import annotations

from simcore.games.sunken_treasure import state as S
from simcore.games.sunken_treasure.board import UNLOCKED_BOX
from simcore.games.sunken_treasure.rules import SunkenTreasureRules, pack
from tests import compensation_kit as kit
from tests.sunken_treasure.test_treasure_rules import Game, discards

GAME = "sunken-treasure"


def test_the_default_is_the_rulebook_and_packs_the_same():
    kit.default_packs_the_same(GAME, "seat_boxes", pack)


def test_the_boxes_come_from_the_item_deck_at_setup():
    """41 Item cards: seat 1 holds 2 Unlocked Boxes, the deck the other 39 (4 boxes), every
    other kind as many as without the field, shuffled all the same."""
    g = Game(3, SunkenTreasureRules(seat_boxes=(0, 2)))
    plain = Game(3)
    assert [int(g.seat(k).hand[UNLOCKED_BOX]) for k in range(3)] == [0, 2, 0]
    deck = [int(c) for c in g.v.item_deck[: int(g.s[S.S_ITEM_N])]]
    full = [int(c) for c in plain.v.item_deck[:41]]
    assert len(deck) == 39 and deck.count(UNLOCKED_BOX) == 4
    assert all(deck.count(k) == full.count(k) for k in range(1, 8))
    g.ok()
    # the first play is still a search ("On your first play, search for an Item")
    assert ("claim", UNLOCKED_BOX) not in g.turn(1).options(1)
    # then claimed like any Unlocked Box: one Treasure card, the box discarded
    g.played().turn(1).top("treasure", 4)
    g.claim(1, UNLOCKED_BOX)
    assert int(g.seat(1).carried.sum()) == 1 and g.carried(1) == 10000
    assert g.seat(1).hand[UNLOCKED_BOX] == 1
    assert discards(g, "item") == [UNLOCKED_BOX]


def test_boxes_are_opened_and_raise_the_seats_win_rate():
    """On the same 3,000 games (seed 38, three default players), seat 2 starting with two
    Unlocked Boxes opens more containers, and wins more often by more than 3 standard
    errors."""
    spec, base = kit.rows_of(GAME, 3, {})
    _, more = kit.rows_of(GAME, 3, {"seat_boxes": "0,0,2"})
    opened = kit.col(spec, more, "containers_opened_2").mean()
    assert opened > kit.col(spec, base, "containers_opened_2").mean() + 0.5  # 3.34 -> 4.05
    kit.win_rate_rises(spec, base, more, 2)


def test_the_trace_header_shows_the_seat_boxes():
    kit.header_shows(GAME, "seat_boxes", "0,0,1")
