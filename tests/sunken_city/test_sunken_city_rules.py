"""Sunken City rules as scenario tests: rulebook examples (seed 000) and each rule sentence.

Diagrams: '.' water, a letter = a street (two squares with the same letter), digits = houses
(0 = house 10). Seat 0 = yellow (village at r0c0), seat 1 = red (r0c8), seat 2 (r8c8).
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore.frame.skeleton import winners_by_score
from simcore.games.sunken_city import engine as E
from simcore.games.sunken_city import engine_invariants as EI
from simcore.games.sunken_city import engine_raising as ER
from simcore.games.sunken_city import engine_turn as ET
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.board import square
from simcore.games.sunken_city.rules import SunkenCityRules, pack
from tests.sunken_city.sc_helpers import (
    CARD_0_7,
    CARD_1_6,
    CARD_2_4,
    CARD_2_5,
    CARD_3_4,
    CARD_4_3,
    EMPTY,
    Game,
)

CARRIED, BANKED, HOUSE_SIDE = 1, 2, 0


# ------------------------------------------------------------------------------ setup
@pytest.mark.parametrize("players,space1,box", [(2, 20, 6), (3, 23, 3), (4, 26, 0)])
def test_setup(players, space1, box):
    """Setup: 20/23/26 streets on space 1, one face-down street on spaces 2-5, space 6 empty,
    the rest boxed; houses 1-9 in their grottoes; house 10 in the centre with the spirit;
    adventurers in their villages; treasures house side up; the die for the player count."""
    r = pack(SunkenCityRules(), players)
    s = S.new_state()
    E.setup(s, r, S.TRACE.new())
    v = S.view(s)
    assert list(v.stacks) == [space1, 1, 1, 1, 1, 0]
    assert v.scal[4] == box  # S_STREETS_IN_BOX
    for h in range(1, 10):
        assert v.piece_sq[S.HOUSE_BASE + h - 1, 0] == -1
    assert v.piece_sq[S.HOUSE_BASE + 9, 0] == square(4, 4)
    assert v.scal[S.S_SPIRIT_SLOT] == S.HOUSE_BASE + 9
    assert all(v.adv[:players] == S.VILLAGE)
    assert (v.treasure[:players] == HOUSE_SIDE).all()
    assert v.scal[S.S_CHIP_SUPPLY] == 8
    die = {2: [1, 2, 2, 3, 3, 4], 3: [0, 1, 2, 2, 3, 3], 4: [0, 1, 1, 2, 2, 3]}[players]
    from simcore.games.sunken_city.rules import P_DIE_N, R_DIE

    assert list(r[R_DIE : R_DIE + r[P_DIE_N]]) == die
    assert EI.check_invariants(s, r) == 0


def test_two_player_villages_diagonally_opposite():
    from simcore.games.sunken_city.rules import R_OWNER, R_VILLAGE

    r = pack(SunkenCityRules(), 2)
    assert list(r[R_VILLAGE : R_VILLAGE + 2]) == [square(0, 0), square(8, 8)]
    assert r[R_OWNER + square(3, 3)] == 0 and r[R_OWNER + square(5, 5)] == 1
    assert r[R_OWNER + square(0, 8)] == -1


def test_short_variant_removes_house_and_treasure_1():
    g = Game(EMPTY, rules=SunkenCityRules(use_house_1=False))
    assert g.treasures(0)["house_side"] == [2, 3, 4, 5, 6, 7, 8, 9, 10, 12]
    g.card(CARD_1_6)
    assert g.house(1, (2, 2), ok=False) != 0
    g.house(2, (2, 2))


# ------------------------------------------------------------------------------ cards
def test_card_cycle():
    """A played card stays out until all 6 are played; then all return to the hand."""
    g = Game(EMPTY, players=2)
    order = [0, 1, 2, 3, 4, 5]
    for i, c in enumerate(order):
        for seat in range(2):
            assert g.seat == seat
            if i > 0:
                assert g.card(order[i - 1], ok=False) != 0  # already played
                assert ET.do_card(g.s, g.r, g.tr, seat, order[i - 1]) != 0
            g.card(c)
            # place what the card demands (streets in a row near the seat's corner)
            while g.scal(S.S_RAISE_LEFT) > 0 and ER.can_build_any(g.s, g.r):
                n = ER.list_street_spots(g.s, g.r, g.x, 0)
                assert n > 0
                assert ER.do_street(g.s, g.r, g.tr, g.x[0], g.x[1]) == 0
            g.end_turn()
    assert list(g.v.hand[:2]) == [63, 63]


# ------------------------------------------------------------------------------ raising
def test_yellow_example_three_pieces_four_moves():
    """seed 000: Yellow plays "place 3 / move 4": 2 streets then house 9 from their village,
    moves street, street, house (3 points), turns treasure 9, moves 1 back onto the street; the
    next turn back in the village banks it."""
    g = Game(EMPTY)
    g.card(CARD_3_4)
    g.street((0, 0), (0, 1))
    g.street((0, 2), (0, 3))
    g.house(9, (0, 4))
    g.walk((0, 0), (0, 2), (0, 4))
    assert g.scal(S.S_MOVE_LEFT) == 1
    assert g.treasures(0)["carried"] == [9]
    g.step((0, 2))
    assert g.scal(S.S_MOVE_LEFT) == 0
    assert g.step((0, 0), ok=False) != 0  # no points left
    g.end_turn()
    for _ in range(2):  # red and the third seat pass with "raise 0 / move 7"
        g.card(CARD_0_7)
        g.end_turn()
    g.card(CARD_0_7)
    g.walk((0, 0), None)
    assert g.treasures(0)["banked"] == [9] and g.adventurer(0) == S.VILLAGE
    assert g.check() == 0


def test_exactly_as_many_pieces_as_the_card():
    g = Game(EMPTY)
    g.card(CARD_2_5)
    g.street((0, 0), (0, 1))
    assert g.end_turn(ok=False) != 0  # one more piece is owed
    g.street((2, 2), (2, 3))
    assert g.street((6, 6), (6, 7), ok=False) != 0  # no more than the card says
    g.end_turn()


def test_fewer_pieces_only_when_no_legal_spot():
    # every free square but one isolated square is covered: no street fits anywhere
    rows = [
        "aabbccdde",
        "ffgghhiie",
        "jjkkllmmn",
        "ooppqqrrn",
        "sstt0uuvv",
        "wwxxyyzzA",
        "BBCCDDEEA",
        "FFGGHHII.",
        ".KKLLMMNN",
    ]
    # 39 streets on this board: more than the box holds, so use a bigger total
    r2 = pack(SunkenCityRules(total_streets=60), 3)
    from simcore.games.sunken_city.positions import from_diagram

    s = from_diagram(r2, "\n".join(rows), stacks=(10, 1, 1, 1, 1, 0))
    tr = S.TRACE.new()
    assert ET.do_card(s, r2, tr, 0, CARD_4_3) == 0
    assert not ER.can_build_any(s, r2)
    assert ET.do_end_turn(s, r2, tr) == 0  # nothing could be raised: the turn may end


def test_street_rules():
    """Streets: any free square but the centre, light or dark; may touch other pieces; two
    orthogonally adjacent squares."""
    g = Game(EMPTY)
    g.card(CARD_4_3)
    assert g.street((4, 3), (4, 4), ok=False) != 0  # the centre takes houses only
    assert g.street((0, 0), (1, 1), ok=False) != 0  # not a domino
    assert g.street((0, 0), (0, 2), ok=False) != 0
    g.street((0, 0), (0, 1))  # light squares
    assert g.street((0, 1), (0, 2), ok=False) != 0  # occupied
    g.street((1, 3), (1, 4))  # dark squares
    g.street((3, 4), (2, 4))  # touching the centre house is fine
    g.street((5, 5), (6, 5))  # isolated, surrounded by water


def test_house_rules():
    """Houses: only dark squares (or the centre), never touching another house, not even at
    a corner; at most one house per turn; chosen freely from the grotto."""
    g = Game(EMPTY)
    g.card(CARD_4_3)
    assert g.house(3, (0, 0), ok=False) != 0  # light square
    assert g.house(3, (3, 3), ok=False) != 0  # light square next to the centre
    assert g.house(3, (3, 5), ok=False) != 0  # touches house 10 at a corner... and is light
    assert g.house(3, (5, 5), ok=False) != 0  # touches house 10 diagonally (light anyway)
    assert g.house(10, (2, 2), ok=False) != 0  # house 10 is on the board, not in the grotto
    g.house(7, (2, 2))
    assert g.house(3, (6, 6), ok=False) != 0  # one house per turn
    g.street((0, 0), (0, 1))
    g.street((0, 2), (0, 3))
    g.street((8, 0), (8, 1))
    g.end_turn()
    g.card(CARD_1_6)
    assert g.house(3, (1, 3), ok=False) != 0  # diagonal neighbour of house 7
    assert g.house(3, (2, 3), ok=False) != 0  # orthogonal neighbour
    g.house(3, (2, 4))  # one square between: fine


def test_any_house_in_the_centre_after_house_10_sank():
    """seed 000: "If house 10 has submerged, any house may later appear in the middle"."""
    g = Game(
        "\n".join(
            ["........."] * 4 + ["....0...."] + ["....a...."] + ["....a...."] + ["........."] * 2
        ),
        rules=SunkenCityRules(die=(1,)),
    )
    g.card(CARD_3_4)
    assert g.house(3, (4, 4), ok=False) != 0  # occupied by house 10
    g.spirit_begin()
    assert g.scal(S.S_SPIRIT_ROLL) == 1
    g.spirit_step((5, 4))
    assert g.v.piece_sq[S.HOUSE_BASE + 9, 0] == -1  # house 10 back in its grotto
    g.house(3, (4, 4))
    # and the chest now lies in house 3
    g.step((5, 4), ok=False)  # the adventurer is in its village far away: no connection
    assert g.check() == 0


# ------------------------------------------------------------------------------ moving
ROUTES = """
a........
a........
b........
bs5......
9sp.0....
..p......
.........
.........
.........
"""


@pytest.mark.parametrize(
    "card,path,points",
    [
        (CARD_3_4, [(3, 1), (2, 0), (0, 0), None], 4),
        (CARD_2_5, [(3, 2), (3, 1), (2, 0), (0, 0), None], 5),
        (CARD_1_6, [(3, 2), (3, 1), (4, 0), (2, 0), (0, 0), None], 6),
    ],
)
def test_three_routes_home(card, path, points):
    """seed 000: the yellow adventurer has 3 ways home, of 4, 5 and 6 movement points, past the
    water spirit ("The water spirit does not hinder them"); the treasures are banked."""
    g = Game(ROUTES, adventurers={0: (4, 2)}, spirit=(3, 1), treasures={0: {5: 1, 9: 1}})
    spirit = g.scal(S.S_SPIRIT_SLOT)
    g.card(card)
    g.walk(*path)
    assert g.scal(S.S_MOVE_LEFT) == 0 and points == len(path)
    assert g.adventurer(0) == S.VILLAGE
    assert g.treasures(0)["banked"] == [5, 9]
    assert g.scal(S.S_SPIRIT_SLOT) == spirit  # nothing happened to the spirit or the pieces
    assert g.check() == 0


def test_no_route_home_shorter_than_four():
    g = Game(ROUTES, adventurers={0: (4, 2)}, spirit=(3, 1), treasures={0: {5: 1, 9: 1}})
    g.card(CARD_4_3)
    g.walk((3, 1), (2, 0), (0, 0))
    assert g.step(None, ok=False) != 0


def test_movement_only_orthogonal_over_pieces():
    g = Game("a........\na........\n.b.......\n.b.......\n....0....\n" + ".........\n" * 4)
    g.card(CARD_0_7)
    g.step((0, 0))
    assert g.step((2, 1), ok=False) != 0  # diagonal only: no connection
    g.step(None)  # back home
    g.step((0, 0))
    assert g.scal(S.S_MOVE_LEFT) == 4


def test_other_villages_cannot_be_entered():
    g = Game(
        "........a\n........a\n" + ".........\n" * 2 + "....0....\n" + ".........\n" * 4,
        adventurers={0: (0, 8)},
    )
    g.card(CARD_0_7)
    assert g.step(None, ok=False) != 0  # red's corner: not yellow's village


def test_chest_and_centre_house():
    """seed 000: the centre house gives its own treasure and the chest (12); if its own
    treasure is already open or banked, only the chest."""
    board = "\n".join(["........."] * 4 + ["..aa3...."] + ["........."] * 4)
    for own, expect in ((HOUSE_SIDE, [3, 12]), (CARRIED, [12]), (BANKED, [12])):
        g = Game(board, adventurers={0: (4, 2)}, spirit=(4, 4), treasures={0: {3: own}})
        g.card(CARD_0_7)
        before = set(g.treasures(0)["carried"])
        g.step((4, 4))
        assert sorted(set(g.treasures(0)["carried"]) - before) == expect
        g.step((4, 3))
        g.step((4, 4))  # entering again changes nothing


def test_chip_move_of_fourteen():
    """seed 000: "place 2 / move 5", treasure 3 in the village, 9 houses and treasure 5
    visible: with a chip the move is up to 14 (5 + 9). One chip per turn; it goes back to
    the supply."""
    g = Game(
        "aa.......\n" + ".........\n" * 3 + "....0....\n" + ".........\n" * 4,
        adventurers={0: (0, 0)},
        treasures={0: {3: BANKED, 5: CARRIED}},
        chips={0: 2},
    )
    assert g.treasures(0)["house_side"] == [1, 2, 4, 6, 7, 8, 9, 10, 12]
    supply = g.scal(S.S_CHIP_SUPPLY)
    g.card(CARD_2_5)
    g.street((2, 0), (3, 0))
    g.house(6, (2, 2))
    g.chip()
    assert g.scal(S.S_MOVE_LEFT) == 14
    assert g.scal(S.S_CHIP_SUPPLY) == supply + 1 and g.v.chips[0] == 1
    assert g.chip(ok=False) != 0  # only one chip per turn
    assert g.check() == 0


@pytest.mark.parametrize("timing", ["before-move", "any-time"])
def test_chip_only_before_the_first_step(timing):
    """seed 000's example counts the chip's points "from the treasures that, before their move,
    were showing the house side up": the chip belongs to the move and is played before its
    first step (chip_timing=before-move, default). chip_timing=any-time keeps the reading
    before issue #23: also in the middle of the move, counted when played."""
    g = Game(
        "aa.......\n" + ".........\n" * 3 + "....0....\n" + ".........\n" * 4,
        rules=SunkenCityRules(chip_timing=timing),
        chips={0: 1},
    )
    g.card(CARD_0_7)
    assert "chip" in g.options()
    g.step((0, 0))
    if timing == "before-move":
        assert "chip" not in g.options()
        assert g.chip(ok=False) != 0
        assert g.scal(S.S_MOVE_LEFT) == 6 and g.v.chips[0] == 1
    else:
        g.chip()
        assert g.scal(S.S_MOVE_LEFT) == 6 + 11
    assert g.check() == 0


def test_no_chips_variant_has_no_chip():
    g = Game(EMPTY, rules=SunkenCityRules(chips=False), chips={})
    g.card(CARD_0_7)
    assert g.chip(ok=False) != 0
    assert g.scal(S.S_CHIP_SUPPLY) == 0
    # the rules as a trace header gives them agree: no chips, an empty supply
    assert SunkenCityRules(chips=False).resolved(3)["chip_supply"] == 0
    assert SunkenCityRules().resolved(3)["chip_supply"] == 8


# ------------------------------------------------------------------------------ the spirit
SINK = """
.........
.........
..5aabbcc
.........
....0....
.........
.........
.........
.........
"""


def spirit_beside_yellow(**kw) -> Game:
    """SINK with the spirit on house 5 (r2c2) and yellow's adventurer beside it on street a."""
    return Game(SINK, adventurers={0: (2, 3)}, spirit=(2, 2), **kw)


def test_spirit_sinks_house_5_and_two_streets_sending_yellow_home():
    """seed 000: a fellow player moves the spirit 3 spaces along the street to the yellow
    adventurer: house 5 and two streets submerge; yellow (on a sinking street) goes home,
    turns treasures 5 and 9 back and receives a chip."""
    g = spirit_beside_yellow(
        rules=SunkenCityRules(die=(3,)), seat=1, treasures={0: {5: CARRIED, 9: CARRIED}}
    )
    stacks = list(g.v.stacks)
    g.card(CARD_3_4)
    g.spirit_begin()
    assert (
        g.scal(S.S_SPIRIT_ROLL) == 3 and g.scal(S.S_SPIRIT_STEPS_LEFT) == 3
    )  # outside red's territory
    g.spirit_step((2, 3))
    assert g.adventurer(0) != S.VILLAGE  # the spirit is on yellow's street: nothing happens yet
    g.spirit_step((2, 5))
    assert g.adventurer(0) == S.VILLAGE  # it left yellow's street
    g.spirit_step((2, 7))
    assert g.scal(S.S_SPIRIT_ACTIVE) == 0  # limit used up
    assert g.v.piece_sq[S.HOUSE_BASE + 4, 0] == -1  # house 5 in its grotto
    for q in ((2, 2), (2, 3), (2, 4), (2, 5), (2, 6)):
        assert g.v.sq_piece[square(*q)] == -1
    assert g.treasures(0)["carried"] == [] and 5 in g.treasures(0)["house_side"]
    assert g.v.chips[0] == 1 and g.v.chips[1] == 0
    assert list(g.v.stacks) == [stacks[0], stacks[1] + 2] + stacks[2:]  # onto space 2
    assert g.check() == 0


def test_no_chip_when_you_sink_your_own_adventurer():
    """seed 000: "If the player themselves moved the water spirit over their own adventurer,
    they do not receive the chip!" The spirit is in yellow's territory: limit 3, no die."""
    g = spirit_beside_yellow(seat=0, treasures={0: {5: CARRIED, 9: CARRIED}})
    g.card(CARD_3_4)
    g.spirit_begin()
    assert g.scal(S.S_SPIRIT_ROLL) == -1 and g.scal(S.S_SPIRIT_STEPS_LEFT) == 3
    g.spirit_step((2, 3))
    g.spirit_step((2, 5))
    assert g.adventurer(0) == S.VILLAGE
    assert g.v.chips[0] == 0 and g.scal(S.S_CHIP_SUPPLY) == 8
    assert sorted(g.treasures(0)["house_side"]) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12]


COMPLETE = """
....9....
.........
ss.......
.tt......
..uu0....
..4......
.........
.........
.........
"""


def test_complete_player_turn():
    """seed 000: Yellow plays "place 4 / move 3": builds 4 streets, moves 3 spaces to house 9,
    turns treasure 9, then moves the spirit 3 spaces to house 4, to the red adventurer; the
    streets it crossed submerge; red stays where the spirit stops."""
    g = Game(COMPLETE, adventurers={1: (5, 2)}, spirit=(2, 0))
    assert g.slot((0, 4)) == S.HOUSE_BASE + 8
    g.card(CARD_4_3)
    g.street((0, 0), (0, 1))
    g.street((0, 2), (0, 3))
    g.street((7, 6), (7, 7))
    g.street((6, 6), (6, 7))
    g.walk((0, 0), (0, 2), (0, 4))
    assert g.treasures(0)["carried"] == [9]
    red = g.adventurer(1)
    g.spirit_begin()
    assert (
        g.scal(S.S_SPIRIT_STEPS_LEFT) == 3 and g.scal(S.S_SPIRIT_ROLL) == -1
    )  # yellow's territory
    g.spirit_step((3, 1))
    g.spirit_step((4, 2))
    g.spirit_step((5, 2))
    assert g.scal(S.S_SPIRIT_SLOT) == red and g.adventurer(1) == red  # red stays
    for q in ((2, 0), (2, 1), (3, 1), (3, 2), (4, 2), (4, 3)):
        assert g.v.sq_piece[square(*q)] == -1
    g.end_turn()
    assert g.check() == 0


def test_spirit_needs_the_icon_and_a_connection():
    g = Game(EMPTY)
    g.card(CARD_0_7)  # no icon
    assert g.spirit_begin(ok=False) != 0
    g.end_turn()
    g.card(CARD_3_4)  # icon, but house 10 stands alone in the water
    assert g.spirit_begin(ok=False) != 0


def test_spirit_never_enters_a_village_and_moves_at_most_once():
    g = Game("aa.......\n" + ".........\n" * 3 + "....0....\n" + ".........\n" * 4, spirit=(0, 0))
    g.card(CARD_3_4)
    assert g.spirit_begin(ok=False) != 0  # the only neighbour would be the village: isolated


def test_spirit_may_stop_short_and_moves_once_per_turn():
    g = Game(SINK, spirit=(2, 2))
    g.card(CARD_3_4)
    g.spirit_begin()
    g.spirit_step((2, 3))
    assert g.spirit_stop() == 0
    assert g.spirit_begin(ok=False) != 0


def test_street_half_in_a_territory_counts():
    """seed 000: a street lying half within the yellow territory counts as yellow's."""
    board = "\n".join(["........."] * 3 + ["...aa...."] + ["....0...."] + ["........."] * 4)
    g = Game(board, spirit=(3, 3), rules=SunkenCityRules(die=(1,)))
    g.card(CARD_3_4)
    g.spirit_begin()
    assert g.scal(S.S_SPIRIT_ROLL) == -1 and g.scal(S.S_SPIRIT_STEPS_LEFT) == 3
    g2 = Game(board, spirit=(3, 3), seat=1, rules=SunkenCityRules(die=(1,)))
    g2.card(CARD_3_4)
    g2.spirit_begin()
    assert g2.scal(S.S_SPIRIT_ROLL) == 1  # red rolls in yellow's territory


def test_two_player_owner_limit_is_four():
    board = "\n".join(["........."] * 3 + ["...aa...."] + ["....0...."] + ["........."] * 4)
    g = Game(board, players=2, spirit=(3, 3))
    g.card(CARD_3_4)
    g.spirit_begin()
    assert g.scal(S.S_SPIRIT_STEPS_LEFT) == 4


def test_roll_of_zero_moves_nothing():
    g = Game(SINK, seat=1, spirit=(2, 2), rules=SunkenCityRules(die=(0,)))
    g.card(CARD_3_4)
    g.spirit_begin()
    assert g.scal(S.S_SPIRIT_ACTIVE) == 0
    assert g.v.piece_sq[S.HOUSE_BASE + 4, 0] == square(2, 2)  # nothing sank


def test_chip_supply_empty_gives_no_chip():
    g = spirit_beside_yellow(rules=SunkenCityRules(die=(3,)), seat=1, supply=0, chips={2: 8})
    g.card(CARD_3_4)
    g.spirit_begin()
    g.spirit_step((2, 3))
    g.spirit_step((2, 5))
    assert g.adventurer(0) == S.VILLAGE and g.v.chips[0] == 0
    assert g.check() == 0


# ------------------------------------------------------------------------------ stacks, end
def test_stack_turnover_mid_turn():
    """seed 000: when the stack on space 1 is used up the sunk streets on space 2 turn face
    up at once, even mid-turn; sunk streets then go onto the next space."""
    g = Game(EMPTY, stacks=(1, 1, 1, 1, 1, 0))
    g.card(CARD_3_4)
    g.street((0, 0), (0, 1))
    assert g.scal(S.S_DRAW_SPACE) == 1  # space 2 face up at once
    g.street((0, 2), (0, 3))
    assert g.scal(S.S_DRAW_SPACE) == 2
    g.street((1, 0), (2, 0))
    assert g.scal(S.S_DRAW_SPACE) == 3 and list(g.v.stacks) == [0, 0, 0, 1, 1, 0]
    assert g.check() == 0


def test_sunk_streets_go_onto_the_space_after_the_draw_stack():
    g = Game(
        SINK.replace("..5aabbcc", "...aabbcc"),
        spirit=(2, 3),
        stacks=(5, 1, 1, 1, 1, 0),
        draw_space=2,
    )
    g.card(CARD_3_4)
    g.spirit_begin()
    g.spirit_step((2, 5))
    assert list(g.v.stacks) == [5, 1, 1, 2, 1, 0]  # drawing from 3: sunk onto 4


def test_hourglass_round_is_finished():
    """seed 000: once the stack on space 5 is used up the hourglass shows; the round is
    played to the end (space 6 serving), then the game ends."""
    g = Game(EMPTY, stacks=(0, 0, 0, 0, 1, 0), draw_space=4, seat=1)
    g.card(CARD_1_6)
    g.street((0, 0), (0, 1))
    assert (
        g.scal(S.S_HOURGLASS) == 1
        and g.scal(S.S_END_REASON) == S.END_HOURGLASS
        and g.scal(S.S_DRAW_SPACE) == 5
    )
    g.end_turn()
    assert g.scal(S.S_GAME_OVER) == 0 and g.seat == 2
    g.card(CARD_1_6)
    # space 6 is empty: the streets have run out, raising is not mandatory
    assert not E.street_available(g.s)
    g.end_turn()
    assert g.scal(S.S_GAME_OVER) == 1 and g.scal(S.S_ROUND) == 1


def test_streets_run_out_then_return_after_sinking():
    """seed 000 "The Streets Run Out": with no draw stack, raising is not mandatory; streets
    can appear again once some have submerged (after the hourglass they go onto space 6)."""
    g = Game(
        SINK.replace("..5aabbcc", "...aabbcc"),
        spirit=(2, 3),
        stacks=(0, 0, 0, 0, 0, 0),
        draw_space=5,
        hourglass=True,
        seat=0,
    )
    g.card(CARD_3_4)
    assert ET.can_end_now(g.s, g.r)  # 3 pieces owed but no street: not mandatory
    assert g.street((6, 6), (6, 7), ok=False) != 0
    g.spirit_begin()
    g.spirit_step((2, 5))  # street aa sinks onto space 6
    g.spirit_stop()
    assert list(g.v.stacks) == [0, 0, 0, 0, 0, 1]
    g.street((6, 6), (6, 7))  # and can be drawn again
    assert g.check() == 0


def test_all_banked_ends_after_the_round():
    """seed 000: a player banks all treasures: the round is finished, then the game ends."""
    board = "a........\na........\n" + ".........\n" * 2 + "....0....\n" + ".........\n" * 4
    all_carried = {v: CARRIED for v in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12]}
    # yellow stands next to the village with everything recovered
    g = Game(board, adventurers={0: (0, 0)}, treasures={0: all_carried})
    g.card(CARD_0_7)
    g.step(None)
    assert g.scal(S.S_END_REASON) == S.END_ALL_BANKED
    g.end_turn()
    assert g.scal(S.S_GAME_OVER) == 0
    for _ in range(2):
        g.card(CARD_0_7)
        g.end_turn()
    assert g.scal(S.S_GAME_OVER) == 1


@pytest.mark.parametrize(
    "scoring,banked,winner",
    [
        ("count", [[1, 2, 3], [10, 12], [4, 5]], 0),  # most treasures
        ("count", [[1, 2], [10, 12], [4, 5]], 1),  # tie on count: sum of values
        ("count", [[1, 4], [2, 3], []], -1),  # still tied: shared
        ("value", [[1, 2, 3], [10, 12], [4, 5]], 1),  # seed 001: sum only
    ],
)
def test_scoring(scoring, banked, winner):
    g = Game(
        EMPTY,
        rules=SunkenCityRules(scoring=scoring),
        treasures={s: {v: BANKED for v in b} for s, b in enumerate(banked)},
    )
    score = np.zeros(4, dtype=np.int64)
    tb = np.zeros(4, dtype=np.int64)
    E.scores(g.s, g.r, score, tb)
    w, mask = winners_by_score(int(g.r[0]), score, tb)
    assert w == winner
    assert E.winners(g.s, g.r, score, tb) == (w, mask)  # the game's hook, no tie ranks
    if winner == -1:
        assert mask == 0b011


@pytest.mark.parametrize(
    "ranks,winner,mask",
    [("0,1,0", 1, 0b010), ("1,0,2", 0, 0b001), ("1,1,0", -1, 0b011), ("0,0,5", -1, 0b011)],
)
def test_a_tie_in_both_goes_to_the_highest_tie_rank(ranks, winner, mask):
    """seat_tiebreak (a designer's addition): seats 0 and 1 tie in treasures and value; the
    higher tie rank among them wins, equal ranks share; seat 2 (not tied) gets nothing."""
    rules = SunkenCityRules(seat_tiebreak=tuple(int(x) for x in ranks.split(",")))
    g = Game(EMPTY, rules=rules, treasures={0: {1: BANKED, 4: BANKED}, 1: {2: BANKED, 3: BANKED}})
    score = np.zeros(4, dtype=np.int64)
    tb = np.zeros(4, dtype=np.int64)
    E.scores(g.s, g.r, score, tb)
    assert E.winners(g.s, g.r, score, tb) == (winner, mask)


# ------------------------------------------------------------------------------ action order
INTERMINGLED = SunkenCityRules(action_order="intermingled")


def test_interleaving_pieces_and_steps():
    """action_order=intermingled (seed 001's advanced game; the basic game's reading before
    issue #23): raise, move, raise again, move on."""
    g = Game(EMPTY, rules=INTERMINGLED)
    g.card(CARD_3_4)
    g.street((0, 0), (0, 1))
    g.step((0, 0))
    g.street((0, 2), (0, 3))
    g.step((0, 2))
    g.house(9, (0, 4))
    g.step((0, 4))
    assert g.treasures(0)["carried"] == [9]
    g.end_turn()


def test_three_whole_actions_in_any_order_by_default():
    """seed 000: "Each card allows 3 actions ... The order of these actions is free to choose"
    (and seed 001 allows intermingling in the advanced game only): by default each of the
    three actions is whole, in any order; raising may not be left unfinished."""
    assert SunkenCityRules().action_order == "blocks"
    g = Game(EMPTY)
    g.card(CARD_3_4)
    g.street((0, 0), (0, 1))
    assert g.step((0, 0), ok=False) != 0  # raising unfinished
    g.street((0, 2), (0, 3))
    g.house(9, (0, 4))
    g.walk((0, 0), (0, 2))
    g.end_turn()
    for _ in range(2):
        g.card(CARD_0_7)
        g.end_turn()
    g.card(CARD_2_4)
    g.step((0, 4))  # move first
    g.street((1, 0), (2, 0))  # then raise
    assert g.step((0, 2), ok=False) != 0  # the move is over
    g.street((3, 0), (4, 0))
    g.end_turn()


def sunken_streets_return_mid_turn(rules: SunkenCityRules) -> Game:
    """The situation of `balance replay sunken-city --players 3 --seed 1 --game 0 --policy
    balanced`, turn 24: two streets use up space 5, the spirit sinks a street onto space 6."""
    g = Game(
        SINK.replace("..5aabbcc", "...aabbcc"),
        rules=rules,
        spirit=(2, 3),
        stacks=(0, 0, 0, 0, 2, 0),
        draw_space=4,
        seat=0,
    )
    g.card(CARD_3_4)
    g.street((6, 6), (6, 7))
    g.street((7, 6), (7, 7))  # space 5 is used up: the hourglass
    assert g.scal(S.S_HOURGLASS) == 1 and list(g.v.stacks) == [0] * 6
    assert ET.can_end_now(g.s, g.r)  # no street left: the third piece is not owed
    g.spirit_begin()
    g.spirit_step((2, 5))  # street aa sinks onto space 6
    g.spirit_stop()
    assert list(g.v.stacks) == [0, 0, 0, 0, 0, 1]
    return g


def test_raising_is_not_split_around_the_spirit_by_default():
    """By default the raising action is over once the spirit moved: the street that sank onto
    space 6 cannot be drawn as this card's third piece (the checked players and the referee
    use the same legality)."""
    g = sunken_streets_return_mid_turn(SunkenCityRules())
    assert "place" not in g.options() and "end" in g.options()
    assert g.street((6, 2), (7, 2), ok=False) != 0
    g.end_turn()
    assert g.check() == 0
    # the old reading, a named option: the raising resumes after the spirit's move
    g = sunken_streets_return_mid_turn(INTERMINGLED)
    assert "place" in g.options() and "end" not in g.options()
    g.street((6, 2), (7, 2))
    g.end_turn()
    assert g.check() == 0


def test_card_must_come_first_and_turn_order():
    g = Game(EMPTY)
    assert g.street((0, 0), (0, 1), ok=False) != 0  # no card yet
    g.card(CARD_0_7)
    assert g.scal(S.S_CARD) == CARD_0_7
    g.end_turn()
    assert g.seat == 1  # the left-hand neighbour
