"""Sumeria rules as scenario tests: each rule sentence of seed 002 and its worked example.

Positions are written as location lists: ``"1C:A 1T1:B"`` puts seat A's trader on the city of
city-state 1 and seat B's on its first town (states 1-8; C city, T1-T3 towns, V1-V3 villages;
default map: C-T1-V1, C-T2-V2, C-T3-V3 inside a state, V3 of state k - V1 of state k+1,
chords 1V2-6V2 and 2V2-5V2). ``order`` lists the city-states from most to least important.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore.base.rulesbase import RulesError
from simcore.frame.rng import new_stream
from simcore.frame.skeleton import winners_by_score
from simcore.games.sumeria import engine as E
from simcore.games.sumeria import state as S
from simcore.games.sumeria.board import load_map, parse_loc
from simcore.games.sumeria.engine_invariants import check_invariants
from simcore.games.sumeria.engine_round import advance, do_choose, ranking, scores, tile_points
from simcore.games.sumeria.positions import from_diagram
from simcore.games.sumeria.rules import SumeriaRules, pack

ECO, MIL, POL, REL = range(4)
A, B, C, D = range(4)


class Game:
    """A position under test with actions by location name (each asserts legality unless
    told otherwise)."""

    def __init__(self, traders="", players=3, rules: SumeriaRules | None = None, **kw):
        self.rules = rules or SumeriaRules()
        self.r = pack(self.rules, players)
        self.s = from_diagram(self.r, traders, **kw)
        self.v = S.view(self.s)
        self.tr = S.TRACE.new()
        self.x = S.new_scratch()
        self.rng = new_stream(3, 0)
        assert self.check() == 0

    @property
    def seat(self) -> int:
        return int(self.v.scal[S.S_SEAT])

    def order(self) -> list[int]:
        return [int(st) + 1 for st in self.v.order]

    def targets(self, loc: str) -> set[str]:
        from simcore.games.sumeria.board import loc_name

        n = E.move_targets(self.s, self.r, parse_loc(loc), self.x, S.X_DEST)
        return {loc_name(self.x[S.X_DEST + i]) for i in range(n)}

    def add(self, loc, ok=True):
        err = E.do_add(self.s, self.r, self.tr, self.seat, parse_loc(loc))
        assert (err == 0) == ok
        return err

    def move(self, frm, to, ok=True):
        err = E.do_move(self.s, self.r, self.tr, self.seat, parse_loc(frm), parse_loc(to), self.x)
        assert (err == 0) == ok
        return err

    def remove(self, loc, ok=True):
        err = E.do_remove(self.s, self.r, self.tr, self.seat, parse_loc(loc))
        assert (err == 0) == ok
        return err

    def ranking(self, state: int) -> tuple[int, int]:
        return tuple(int(v) for v in ranking(self.s, self.r, state - 1))

    def score_round(self):
        """Run the end-of-round scoring up to the next choice (or the next round)."""
        self.v.scal[S.S_PHASE] = S.PH_SCORE
        self.v.scal[S.S_CHOOSE_POS] = 0
        advance(self.s, self.r, self.tr, self.rng)

    def choose(self, t, ok=True):
        err = do_choose(self.s, self.r, self.tr, self.seat, t)
        assert (err == 0) == ok
        if err == 0 and self.v.scal[S.S_PHASE] == S.PH_SCORE:
            advance(self.s, self.r, self.tr, self.rng)
        return err

    def check(self) -> int:
        return int(check_invariants(self.s, self.r))


# ------------------------------------------------------------------------------ setup
@pytest.mark.parametrize("players,traders,initial", [(3, 14, 8), (4, 10, 5)])
def test_setup(players, traders, initial):
    """ "14 for a 3-player game, 10 for a 4-player game"; the 8 tiles in random order; "draw
    6" tiles: 3, 2 and 1 above the three leftmost; a random first player; then each player
    places 8 / 5 traders, one at a time in turn order, one trader per location."""
    r = pack(SumeriaRules(), players)
    firsts = set()
    orders = set()
    for seed in range(40):
        s = S.new_state()
        E.setup(s, r, S.TRACE.new(), new_stream(seed, 0))
        v = S.view(s)
        assert list(v.reserve[:players]) == [traders] * players
        assert sorted(v.order) == list(range(8))
        assert [int(v.display[p].sum()) for p in range(3)] == [3, 2, 1]
        assert v.scal[S.S_BAG] == 30 and v.bag.sum() == 30
        assert v.scal[S.S_PHASE] == S.PH_SETUP and v.scal[S.S_SEAT] == v.scal[S.S_FIRST]
        firsts.add(int(v.scal[S.S_FIRST]))
        orders.add(tuple(v.order))
        assert check_invariants(s, r) == 0
        first = int(v.scal[S.S_FIRST])
        order0 = v.order.copy()
        tr, x = S.TRACE.new(), S.new_scratch()
        rng = new_stream(seed, 1)
        for k in range(players * initial):
            seat = (first + k) % players
            assert v.scal[S.S_SEAT] == seat
            assert E.do_place(s, r, tr, (seat + 1) % players, k) == E.ERR_ILLEGAL  # not on turn
            if k:
                assert E.do_place(s, r, tr, seat, k - 1) == E.ERR_ILLEGAL  # occupied
            assert E.do_place(s, r, tr, seat, k) == 0
            assert check_invariants(s, r) == 0
        assert v.scal[S.S_PHASE] == S.PH_TURN and v.scal[S.S_SEAT] == first
        assert list(v.reserve[:players]) == [traders - initial] * players
        # ruling setup_shifts_order = False: placing moves no tile
        assert list(v.order) == list(order0)
        del x, rng
    assert firsts == set(range(players))
    assert len(orders) > 30


def test_setup_shifts_order_option():
    r = pack(SumeriaRules(setup_shifts_order=True), 3)
    s = S.new_state()
    E.setup(s, r, S.TRACE.new(), new_stream(1, 0))
    v = S.view(s)
    st = int(v.order[3])
    assert E.do_place(s, r, S.TRACE.new(), int(v.scal[S.S_SEAT]), st * 7) == 0
    assert v.pos[st] == 2


# ------------------------------------------------------------------------------ actions
def test_add_swaps_the_state_left():
    """Add: "places it on an empty space ... The tile of this City-State is then swapped with
    the one to its left ... (if possible)"; not on an occupied location."""
    g = Game("1C:A 2C:B", order=(1, 2, 3, 4, 5, 6, 7, 8))
    g.add("2C", ok=False)  # occupied
    g.add("3T1")
    assert g.order() == [1, 3, 2, 4, 5, 6, 7, 8]
    assert g.v.loc[parse_loc("3T1")] == A and g.v.reserve[A] == 12
    g.add("1T1")  # B adds in the leftmost state: no swap possible
    assert g.order() == [1, 3, 2, 4, 5, 6, 7, 8]
    assert g.seat == C and g.check() == 0


def test_add_not_available_with_an_empty_reserve():
    """ "If all of a player's traders are already on the board, this option is not available.\""""
    locs = " ".join(f"{st}{k}:A" for st in (1, 2, 3, 4) for k in ("C", "T1", "T2", "T3"))
    g = Game(locs, rules=SumeriaRules(traders=(16, 10)))
    assert g.v.reserve[A] == 0
    g.add("5C", ok=False)
    g.move("4T3", "4V3")
    assert g.check() == 0


def test_remove_swaps_the_state_right():
    """Remove: back to the reserve; "The tile of this City-State is swapped with the one to its
    right"; only one's own trader."""
    g = Game("3C:A 4C:B 8C:C", order=(1, 2, 3, 4, 5, 6, 7, 8))
    g.remove("4C", ok=False)  # B's trader
    g.remove("3C")
    assert g.order() == [1, 2, 4, 3, 5, 6, 7, 8]
    assert g.v.reserve[A] == 14
    assert g.seat == B
    g.remove("4C")
    assert g.order() == [1, 2, 3, 4, 5, 6, 7, 8]
    g.remove("8C")  # rightmost: no swap possible
    assert g.order() == [1, 2, 3, 4, 5, 6, 7, 8]
    assert g.check() == 0


def test_move_to_the_next_location_and_influence():
    """A move along one route to the next empty location; ending in a different city-state
    swaps the destination left; within the same state nothing moves; the state left behind
    loses nothing (ruling move_shifts_source = False)."""
    g = Game("1V3:A 5T1:B", order=(1, 2, 3, 4, 5, 6, 7, 8))
    assert g.targets("1V3") == {"1T3", "2V1"}
    g.move("1V3", "2T1", ok=False)  # two steps without a trader to jump
    g.move("1V3", "2V1")
    assert g.order() == [2, 1, 3, 4, 5, 6, 7, 8]
    g.move("5T1", "5C")  # B, same state
    assert g.order() == [2, 1, 3, 4, 5, 6, 7, 8]
    assert g.check() == 0


def test_move_shifts_source_option():
    g = Game("1V3:A", order=(1, 2, 3, 4, 5, 6, 7, 8), rules=SumeriaRules(move_shifts_source=True))
    g.move("1V3", "2V1")
    # state 1 loses first (1 <-> 2), then state 2 gains (already leftmost)
    assert g.order() == [2, 1, 3, 4, 5, 6, 7, 8]
    g2 = Game("4V3:A", order=(1, 2, 3, 4, 5, 6, 7, 8), rules=SumeriaRules(move_shifts_source=True))
    g2.move("4V3", "5V1")
    # state 4 loses (swaps with 5), then state 5 gains (swaps with 3)
    assert g2.order() == [1, 2, 5, 3, 4, 6, 7, 8]


def test_jumps_over_traders_to_the_first_empty_location():
    """ "You may jump over any traders (opponents' or your own) but must stop at the first
    empty location." Along a chain of towns and villages the trader goes straight on."""
    g = Game("1V1:A 1T1:B 8V3:A 8T3:C")
    # 1V1 -> 1T1 (occupied) -> 1C (empty); 1V1 -> 8V3 (own, occupied) -> 8T3 (occupied) -> 8C
    assert g.targets("1V1") == {"1C", "8C"}
    g.move("1V1", "8C")
    assert g.v.counters[A, 6] == 1  # C_JUMPS
    assert g.order()[6] == 8  # state 8 gained influence: one place to the left


def test_city_pass_through():
    """ "When you arrive at an occupied city, you may continue along any trade route leaving
    that city" (the illustration: 3 destinations). Not back along the route it came by."""
    g = Game("1T1:A 1C:B")
    assert g.targets("1T1") == {"1V1", "1T2", "1T3"}
    g2 = Game("1T1:A 1C:B 1T2:C 1T3:C")
    # through the city, then straight on over each occupied town to its village
    assert g2.targets("1T1") == {"1V1", "1V2", "1V3"}
    g3 = Game("1T1:A 1C:B 1T2:C 1V2:C 6V2:B 6T2:B")
    # 1T2 (occupied) -> 1V2 (occupied) -> chord -> 6V2 -> 6T2 -> 6C
    assert g3.targets("1T1") == {"1V1", "1T3", "6C"}


def test_dead_end_and_blocked_directions():
    """A village at the end of a route (3V2 has no chord on the default map): over it there
    is nowhere to go, so that direction gives no move."""
    g = Game("3C:A 3T2:B 3V2:C 3T1:B 3T3:B 3V1:C 3V3:C 2V3:A 4V1:A 2T3:B 4T3:B")
    # 3C -> 3T1 -> 3V1 -> 2V3 -> 2T3 -> 2C; 3C -> 3T3 -> 3V3 -> 4V1 -> 4T1 (empty)
    assert g.targets("3C") == {"2C", "4T1"}


def test_a_path_back_to_the_start_is_no_move():
    """Ruling: a jump that comes round to the empty start location ends there: no move."""
    ring = " ".join(
        f"{st}{k}:{'ABC'[(st + i) % 3]}" for st in range(1, 9) for i, k in enumerate(("V1", "V3"))
    )
    g = Game(ring + " 1T1:A 1T3:B", rules=SumeriaRules(map="ring"))
    # from 1V1 every village on the ring is occupied; going round leads back to 1V1
    t = g.targets("1V1")
    assert "1V1" not in t and t == {"1C", "8T3"}


def test_move_only_own_trader_and_only_on_turn():
    g = Game("1C:A 2C:B")
    g.move("2C", "2T1", ok=False)
    assert E.do_add(g.s, g.r, g.tr, B, parse_loc("5C")) == E.ERR_ILLEGAL
    g.move("1C", "1T1")
    assert g.seat == B


# ------------------------------------------------------------------------------ control
def test_control_most_traders():
    """ "the player with the most traders in that City-State gains control ...; the player with
    the second-highest number of traders becomes second.\""""
    g = Game("1V1:A 1V2:A 1V3:B 1C:C")
    assert g.ranking(1) == (A, C)  # A has 2; B and C 1 each, C holds the city


def test_control_tie_city_then_towns_then_turn_order():
    """ "In case of a tie, the tied player who has a trader in the city wins. If the tie
    persists, the tied player with the most traders in the towns wins. If there is still a
    tie, the tied player who played first during that round wins.\""""
    # one each: the city wins
    assert Game("2V1:A 2C:B").ranking(2) == (B, A)
    # two each, nobody in the city: towns win
    assert Game("2V1:A 2V2:A 2T1:B 2V3:B").ranking(2) == (B, A)
    # two each, one town each: turn order of the round (first player C, then A, then B)
    g = Game("2V1:A 2T1:A 2T2:B 2V3:B", first=C)
    assert g.ranking(2) == (A, B)
    g = Game("2V1:A 2T1:A 2T2:B 2V3:B", first=B)
    assert g.ranking(2) == (B, A)
    # nobody: no controller
    assert Game("").ranking(2) == (-1, -1)


def test_control_and_the_tile_share():
    """First state: the controller chooses 2 of 3, the second receives the remaining one;
    second state: 1 of 2 and the other; third state: the controller receives the tile, the
    second nothing."""
    g = Game(
        "1C:A 1T1:A 1V1:B 2C:B 2T1:C 3C:C 3T1:A",
        display=[[ECO, MIL, REL], [POL, REL], [ECO]],
        held={A: (0, 0, 0, 0)},
    )
    g.score_round()
    assert g.v.scal[S.S_PHASE] == S.PH_CHOOSE and g.seat == A and g.v.scal[S.S_PICKS] == 2
    g.choose(POL, ok=False)  # not above this state
    g.choose(MIL)
    assert g.v.scal[S.S_PHASE] == S.PH_CHOOSE and g.seat == A
    g.choose(REL)
    # B left with the economy tile; now state 2: B chooses 1 of 2
    assert g.v.held[B, ECO] == 1
    assert g.seat == B and g.v.scal[S.S_CHOOSE_POS] == 1
    g.choose(REL)
    assert g.v.held[C, POL] == 1
    # state 3: C controls (city) and receives the tile; A gets nothing
    assert g.v.held[C, ECO] == 1 and g.v.held[A].sum() == 2
    assert g.v.scal[S.S_PHASE] == S.PH_TURN and g.v.scal[S.S_ROUND] == 1
    assert g.check() == 0


def test_discards_when_empty_or_single_player():
    """ "If there is no trader in a City-State being scored, all its Influence tiles are
    discarded. Likewise, if only one player has traders in either of the first 2 City-States,
    that player has the choice of Influence tiles, but the remaining tiles are discarded.\""""
    g = Game("2C:B 2T1:B 3C:C", display=[[ECO, MIL, REL], [POL, REL], [ECO]])
    g.score_round()
    # state 1 empty: 3 discarded; state 2 only B: B chooses 1, the other discarded
    assert list(g.v.discarded) == [1, 1, 0, 1]
    assert g.seat == B and g.v.scal[S.S_CHOOSE_POS] == 1
    g.choose(POL)
    assert list(g.v.discarded) == [1, 1, 0, 2]
    assert g.v.held[B, POL] == 1 and g.v.held[C, ECO] == 1
    assert g.check() == 0


def test_no_choice_when_the_tiles_are_alike():
    g = Game("1C:A 1T1:B", display=[[REL, REL, REL], [POL, POL], [ECO]])
    g.score_round()
    assert g.v.held[A, REL] == 2 and g.v.held[B, REL] == 1
    assert g.v.discarded.sum() == 3  # states 2 and 3 have no traders
    assert g.v.scal[S.S_PHASE] == S.PH_TURN


# ------------------------------------------------------------------------------ next round
def test_next_first_player_fewest_in_the_first_state():
    """ "The player who had the fewest traders for the first City-State is last for the round;
    the player to their left therefore receives the first player marker.\""""
    g = Game("1C:A 1T1:A 1T2:B 1T3:C 1V1:C")
    g.score_round()
    while g.v.scal[S.S_PHASE] == S.PH_CHOOSE:
        g.choose(int(np.flatnonzero(g.v.display[g.v.scal[S.S_CHOOSE_POS]])[0]))
    assert g.v.scal[S.S_FIRST] == C  # B had fewest (1), so C (B's left) starts
    assert g.seat == C


def test_next_first_player_tie_goes_to_the_next_states():
    """ "If there is a tie for the fewest traders in the first City-State, this tie-breaking
    process is repeated for each City-State until there is a single player with the fewest.\""""
    # state 1: A 1, B 1, C 2 -> A, B tied; state 2: A 1, B 0 -> B fewest -> C first
    g = Game("1C:A 1T1:B 1T2:C 1T3:C 2C:A")
    g.score_round()
    while g.v.scal[S.S_PHASE] == S.PH_CHOOSE:
        g.choose(int(np.flatnonzero(g.v.display[g.v.scal[S.S_CHOOSE_POS]])[0]))
    assert g.v.scal[S.S_FIRST] == C
    # everybody equal in every state: ruling first_player_fallback = latest: the player who
    # played latest (first player A: C) is last, so A starts again
    g = Game("", first=A)
    g.score_round()
    assert g.v.scal[S.S_FIRST] == A
    g = Game("", first=A, rules=SumeriaRules(first_player_fallback="earliest"))
    g.score_round()
    assert g.v.scal[S.S_FIRST] == B
    # 4 players, zero traders counts as fewest: D has none in state 1
    g = Game("1C:A 1T1:B 1T2:C", players=4)
    g.score_round()
    while g.v.scal[S.S_PHASE] == S.PH_CHOOSE:
        g.choose(int(np.flatnonzero(g.v.display[g.v.scal[S.S_CHOOSE_POS]])[0]))
    assert g.v.scal[S.S_FIRST] == A  # D last, A to D's left


def test_order_shift_after_scoring():
    """ "The first 3 City-State tiles ... are set aside. The remaining tiles are moved 3 ranks to
    the left ... the 3 scored City-States are placed back in reverse order (i.e. as the 8th,
    7th, and 6th).\""""
    g = Game("", order=(5, 2, 7, 1, 8, 3, 6, 4))
    g.score_round()
    assert g.order() == [1, 8, 3, 6, 4, 7, 2, 5]
    assert g.check() == 0
    assert int(g.v.display.sum()) == 6  # 6 new tiles drawn
    assert g.v.discarded.sum() == 0  # nothing was drawn before in this position


def test_six_rounds_then_over():
    g = Game("", round_=5)
    g.score_round()
    assert g.v.scal[S.S_PHASE] == S.PH_OVER and g.v.scal[S.S_ROUND] == 6
    assert g.check() == 0


def test_turn_order_three_turns_then_scoring():
    """ "During each round, players (starting with the first player) take 3 turns.\""""
    g = Game("", first=B)
    seats = []
    for k in range(9):
        seats.append(g.seat)
        g.add(f"{k % 8 + 1}{'V1' if k < 8 else 'V2'}")
    assert seats == [B, C, A] * 3
    assert g.v.scal[S.S_PHASE] == S.PH_SCORE


# ------------------------------------------------------------------------------ scoring
def _scores(held, rules=None):
    r = pack(rules or SumeriaRules(), len(held))
    s = S.new_state()
    v = S.view(s)
    for seat, counts in enumerate(held):
        v.held[seat, :] = counts
    score = np.zeros(4, dtype=np.int64)
    tb = np.zeros(4, dtype=np.int64)
    scores(s, r, score, tb)
    w, mask = winners_by_score(len(held), score, tb)
    return list(score[: len(held)]), list(tb[: len(held)]), int(w), int(mask)


def test_rulebook_scoring_example():
    """Known answer: "Dirk 4x=10 2x=3 4x=10 5x=15 38; Jack 3x=6 2x=3 5x=15 1x=1 25; Paul
    2x=3 5x=15 0x=0 3x=6 24. Dirk wins.\""""
    score, tb, w, mask = _scores([(4, 2, 4, 5), (3, 2, 5, 1), (2, 5, 0, 3)])
    assert score == [38, 25, 24]
    assert w == 0 and mask == 1


def test_scoring_table_and_linear():
    """ "Number of tiles of one type 1..9 -> 1 3 6 10 15 21 28 36 45"; linear: 1 per tile."""
    r = pack(SumeriaRules(), 3)
    assert [tile_points(r, n) for n in range(10)] == [0, 1, 3, 6, 10, 15, 21, 28, 36, 45]
    score, _, _, _ = _scores(
        [(4, 2, 4, 5), (3, 2, 5, 1), (2, 5, 0, 3)], SumeriaRules(scoring="linear")
    )
    assert score == [15, 11, 10]


def test_final_tie_breaks():
    """ "In case of a tie, the tied player with the most Influence tiles of a single type wins.
    If the tie still persists, all tied players share the win.\""""
    # 3+3 = 6 points with (2,2) vs 6 points with (3): the 3-of-a-kind wins
    score, tb, w, mask = _scores([(2, 2, 0, 0), (3, 0, 0, 0), (1, 0, 0, 0)])
    assert score == [6, 6, 1] and tb == [2, 3, 1] and w == 1 and mask == 2
    score, tb, w, mask = _scores([(3, 0, 0, 0), (0, 3, 0, 0), (1, 0, 0, 0)])
    assert w == -1 and mask == 0b011


# ------------------------------------------------------------------------------ maps, rules
def test_maps():
    """The reconstruction of GAME-DATA.md (58 routes) and the alternative layouts."""
    assert len(load_map("default")) == 58
    assert len(load_map("ring")) == 56
    assert len(load_map("cross")) == 60
    routes = {frozenset(p) for p in load_map("default")}
    assert frozenset((parse_loc("1V2"), parse_loc("6V2"))) in routes
    assert frozenset((parse_loc("2V2"), parse_loc("5V2"))) in routes
    assert frozenset((parse_loc("8V3"), parse_loc("1V1"))) in routes


def test_bad_rules_are_one_sentence(tmp_path):
    with pytest.raises(RulesError, match="neither a shipped map"):
        SumeriaRules(map="nowhere").validate(3)
    bad = tmp_path / "bad.txt"
    bad.write_text("1C 9T1\n")
    with pytest.raises(RulesError, match="unknown location"):
        SumeriaRules(map=str(bad)).validate(3)
    with pytest.raises(RulesError, match="3 to 4 players"):
        SumeriaRules().validate(2)
    with pytest.raises(RulesError):
        SumeriaRules(traders=(20, 10)).validate(3)
    with pytest.raises(RulesError):
        SumeriaRules(scoring="square").validate(3)


def test_custom_map_file(tmp_path):
    p = tmp_path / "line.txt"
    p.write_text("\n".join(f"{k}C {k}T1\n{k}T1 {k}V1" for k in range(1, 9)) + "\n1V1 2C\n")
    g = Game("1T1:B", rules=SumeriaRules(map=str(p)))
    assert g.targets("1C") == {"1V1"}
