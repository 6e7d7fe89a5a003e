"""Chutes and Ladders rules as scenario tests: each rule sentence of the Milton Bradley game
(docs/rules-chutes-and-ladders.md), played by the engine's kernels from arranged positions. A
spinner with one face makes a spin certain. Seats: A = 0, B = 1, C = 2, D = 3."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simcore import get_game, simulate
from simcore.base.rulesbase import RulesError
from simcore.frame.rng import new_stream
from simcore.games.chutes_and_ladders import engine as E
from simcore.games.chutes_and_ladders import play as P
from simcore.games.chutes_and_ladders import state as S
from simcore.games.chutes_and_ladders.board import CHUTES, LADDERS, MILTON_BRADLEY
from simcore.games.chutes_and_ladders.rules import ChutesAndLaddersRules, pack
from tests.conformance.cases import checked_frame
from tests.conftest import run_main

GAME = "chutes-and-ladders"


class Table:
    """A position: the packed rules, the state after setup, and the kernels' other arguments."""

    def __init__(self, players: int = 1, **rules):
        self.rules = ChutesAndLaddersRules(**rules)
        self.r = pack(self.rules, players)
        self.s = np.zeros(S.STATE_SIZE, dtype=np.int64)
        self.tr = S.TRACE.new(0, False)
        self.rng = new_stream(1, 0)
        E.setup(self.s, self.r, self.tr, self.rng)

    def square(self, seat: int) -> int:
        return int(self.s[S.seat_field(seat, S.F_SQUARE)])

    def count(self, seat: int, c: int) -> int:
        return int(self.s[S.seat_field(seat, S.F_CNT + c)])

    def put(self, seat: int, square: int) -> None:
        """Move a piece to a square as if by the spinner (its path stays consistent)."""
        self.s[S.seat_field(seat, S.F_SQUARE)] = square
        self.s[S.seat_field(seat, S.F_CNT + S.C_ADVANCED)] = square

    def turn(self, pol: int = P.POL_SPINNER) -> int:
        seat = int(self.s[S.S_SEAT])
        w = np.zeros((4, 1))
        x, xf, tab = np.zeros(1, np.int64), np.zeros(1), np.zeros(1)
        return P.play_turn(self.s, self.r, self.tr, seat, pol, w, self.rng, True, x, xf, tab)


# ------------------------------------------------------------------------------ the rules
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_pieces_start_off_the_board(players):
    t = Table(players)
    assert [t.square(k) for k in range(players)] == [0] * players
    assert t.s[S.S_SEAT] == 0 and t.s[S.S_WINNER] == -1 and t.s[S.S_END_REASON] == -1
    assert E.check_invariants(t.s, t.r) == 0


def test_the_spinner_moves_the_piece_that_many_squares():
    for face in (2, 3, 5):  # no link on 2, 3, 5
        t = Table(spinner=(face,))
        assert t.turn() == 0
        assert t.square(0) == face and t.count(0, S.C_ADVANCED) == face


def test_the_spinner_shows_each_face_equally_often():
    """Games of the plain race (no links): a seat's first spin is its square after one turn
    of a 1-round game; the faces 1 to 6 come up equally often (chi-square)."""
    from scipy import stats

    rows = simulate(
        get_game(GAME),
        1,
        60_000,
        seed=9,
        overrides={"links": "none", "max_rounds": 1},
        keep_rows=True,
    ).rows
    counts = rows["score_0"].value_counts().sort_index()
    assert list(counts.index) == [1, 2, 3, 4, 5, 6]
    assert stats.chisquare(counts.to_numpy()).pvalue > 0.001


@pytest.mark.parametrize("start, end", LADDERS + CHUTES)
def test_a_ladder_climbs_to_its_top_and_a_chute_slides_to_its_bottom(start, end):
    t = Table(spinner=(start,))
    t.turn()
    assert t.square(0) == end
    link, moved = (S.C_LADDERS, S.C_CLIMBED) if end > start else (S.C_CHUTES, S.C_SLID)
    assert t.count(0, link) == 1 and t.count(0, moved) == abs(end - start)


def test_the_board_is_the_milton_bradley_board():
    assert ChutesAndLaddersRules().links == MILTON_BRADLEY
    assert len(LADDERS) == 9 and len(CHUTES) == 10
    assert all(a < b for a, b in LADDERS) and all(a > b for a, b in CHUTES)
    assert dict(MILTON_BRADLEY)[80] == 100


@pytest.mark.parametrize("at, face", [(97, 4), (99, 6), (95 - 20, 26)])
def test_a_spin_that_would_pass_100_is_not_moved(at, face):
    t = Table(spinner=(face,), links=())
    t.put(0, at)
    assert t.turn() == 0
    assert t.square(0) == at and t.count(0, S.C_STAYED) == 1 and t.count(0, S.C_SPINS) == 1
    assert t.s[S.S_GAME_OVER] == 0


def test_landing_exactly_on_100_wins_and_ends_the_game_at_once():
    t = Table(2, spinner=(3,), links=())
    t.put(0, 97)
    t.put(1, 98)
    assert t.turn() == 0
    assert t.s[S.S_GAME_OVER] == 1 and t.s[S.S_WINNER] == 0
    assert t.s[S.S_END_REASON] == S.END_FINISH and t.s[S.S_BY_LADDER] == 0
    assert t.s[S.S_SEAT] == 0  # the game ended at once: seat B never spins
    assert t.count(1, S.C_SPINS) == 0


def test_the_ladder_to_100_wins():
    t = Table(spinner=(80,))
    t.turn()
    assert t.square(0) == 100 and t.s[S.S_WINNER] == 0 and t.s[S.S_BY_LADDER] == 1


def test_a_game_ends_with_the_first_to_100_and_the_others_one_spin_short_at_most():
    frame, _ = checked_frame(GAME, 3, policy="spinner", games=300)
    assert (frame["end_reason"] == S.END_FINISH).all()
    for k in range(3):
        won = frame["winner"] == k
        assert (frame.loc[won, f"score_{k}"] == 100).all()
        # the seats before the winner spun as often as it, the seats after it once less
        for j in range(3):
            short = 0 if j <= k else 1
            assert (frame.loc[won, f"spins_{j}"] == frame.loc[won, f"spins_{k}"] - short).all()
    losers = [frame[f"score_{k}"].where(frame["winner"] != k) for k in range(3)]
    assert all((s.dropna() < 100).all() for s in losers)


def test_the_seats_take_turns_in_order():
    t = Table(3, spinner=(2,), links=())
    for n in range(7):
        assert t.s[S.S_SEAT] == n % 3
        t.turn()
    assert [t.count(k, S.C_SPINS) for k in range(3)] == [3, 2, 2]


def test_the_round_limit_ends_the_game_without_a_winner():
    """A spinner of 99 without links: 0 -> 99, then every spin would pass 100."""
    rows = simulate(
        get_game(GAME),
        2,
        5,
        seed=1,
        overrides={"links": "none", "spinner": "99", "max_rounds": "30"},
        keep_rows=True,
    ).rows
    assert (rows["end_reason"] == S.END_ROUND_LIMIT).all()
    assert (rows["winner"] == -1).all() and (rows["win_mask"] == 0).all()
    assert (rows["rounds"] == 30).all() and (rows["turns"] == 60).all()
    assert (rows["stayed_0"] == 29).all() and (rows["score_1"] == 99).all()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_rounds_are_the_spins_per_player(players):
    frame, _ = checked_frame(GAME, players, policy="spinner", games=200)
    assert (frame["rounds"] == frame["spins_0"]).all()
    assert (frame["rounds"] == (frame["turns"] + players - 1) // players).all()
    assert (frame["turns"] == sum(frame[f"spins_{k}"] for k in range(players))).all()
    if players == 1:
        assert (frame["rounds"] == frame["turns"]).all()


def test_the_only_player_is_the_spinner():
    spec = get_game(GAME)
    assert list(spec.policies) == ["spinner"] and spec.default_policy == "spinner"
    assert not spec.driver.search
    t = Table()
    assert t.turn(pol=P.POL_SPINNER + 1) == E.ERR_ILLEGAL and t.s[S.S_TURN] == 0


def test_search_is_refused_with_one_line(monkeypatch, capsys):
    spec = get_game(GAME)
    with pytest.raises(RulesError, match="no decisions"):
        spec.parse_policies("search", 2)
    code, out, err = run_main(["simulate", GAME, "--policy", "search"], monkeypatch, capsys)
    assert code == 2
    assert spec.no_search in err and len(err.strip().splitlines()) == 1


def test_balance_games_lists_it_as_a_reference_game(monkeypatch, capsys):
    code, out, _ = run_main(["games"], monkeypatch, capsys)
    assert code == 0
    ref = out[out.index("reference games") :]
    assert "chutes-and-ladders" in ref and "39.2251" in ref


# ------------------------------------------------------------------------ editable board
def test_a_designer_may_change_the_links():
    spec = get_game(GAME)
    rules = spec.resolve_rules([], {"links": "3/60,70/2"}, None, 1)
    assert rules.links == ((3, 60), (70, 2))
    t = Table(spinner=(3,), links=rules.links)
    t.turn()
    assert t.square(0) == 60
    assert spec.resolve_rules([], {"links": "none"}, None, 1).links == ()
    assert spec.resolve_rules(["no-links"], {}, None, 1).links == ()
    assert spec.resolve_rules(["ladders-only"], {}, None, 1).links == LADDERS


@pytest.mark.parametrize(
    "links, message",
    [
        ("100/50", "start on a square 1 to 99"),
        ("0/50", "start on a square 1 to 99"),
        ("50/0", "end on a square 1 to 100"),
        ("50/101", "each value of links must be 0 to 100"),
        ("40/40", "leads to its own square"),
        ("10/20,10/30", "square 10 starts two links"),
        ("10/20,20/30", "ends on square 20, where another link starts"),
        ("10/20/30", "neither a name"),
    ],
)
def test_bad_links_are_refused(links, message):
    with pytest.raises(RulesError, match=message):
        get_game(GAME).resolve_rules([], {"links": links}, None, 2)


@pytest.mark.parametrize(
    "spinner, message",
    [
        ("0,1", "each value of spinner must be 1 to 100"),
        (",".join(["1"] * 13), "1 to 12 faces"),
        ("101", "each value of spinner must be 1 to 100"),
    ],
)
def test_bad_spinners_are_refused(spinner, message):
    with pytest.raises(RulesError, match=message):
        get_game(GAME).resolve_rules([], {"spinner": spinner}, None, 2)


def test_the_spinners_faces_may_change():
    t = Table(spinner=(2, 2, 2))
    t.turn()
    assert t.square(0) == 2
    rules = get_game(GAME).resolve_rules([], {"spinner": "1,2,3,4"}, None, 1)
    assert rules.spinner == (1, 2, 3, 4)


@pytest.mark.parametrize("players", [0, 5])
def test_one_to_four_players(players):
    with pytest.raises(RulesError, match="1 to 4 players"):
        get_game(GAME).resolve_rules([], {}, None, players)


# ------------------------------------------------------------------------ checked mode
def _broken(change) -> int:
    t = Table(2)
    t.put(0, 5)
    t.s[S.S_TURN] = 2
    t.s[S.seat_field(0, S.F_CNT + S.C_SPINS)] = 1
    t.s[S.seat_field(1, S.F_CNT + S.C_SPINS)] = 1
    assert E.check_invariants(t.s, t.r) == 0
    change(t)
    return E.check_invariants(t.s, t.r)


@pytest.mark.parametrize(
    "change, code",
    [
        (lambda t: t.s.__setitem__(S.S_SEAT, 1), E.ERR_SEAT),
        (lambda t: t.put(1, 16), E.ERR_SQUARE),  # resting on a chute's top
        (lambda t: t.put(1, 101), E.ERR_SQUARE),
        (lambda t: t.s.__setitem__(S.seat_field(0, S.F_SQUARE), 6), E.ERR_PATH),
        (lambda t: t.s.__setitem__(S.seat_field(1, S.F_CNT + S.C_SPINS), 2), E.ERR_SPINS),
        (lambda t: t.put(1, 100), E.ERR_WINNER),
        (lambda t: t.s.__setitem__(S.S_WINNER, 0), E.ERR_WINNER),
        (lambda t: t.s.__setitem__(S.S_END_REASON, S.END_FINISH), E.ERR_OVER),
        (lambda t: t.s.__setitem__(S.S_TURN, 10**6), E.ERR_LIMIT),
    ],
)
def test_check_invariants_finds_each_broken_invariant(change, code):
    assert _broken(change) == code


def test_a_broken_invariant_ends_the_game_with_its_error():
    """The turn in checked mode returns the invariant's code (here a piece planted on a
    chute's top before the spin)."""
    t = Table(2, spinner=(2,))
    t.s[S.seat_field(1, S.F_SQUARE)] = 16
    assert t.turn() == E.ERR_SQUARE


def test_the_rules_fields_are_the_declared_ones():
    names = [f.name for f in dataclasses.fields(ChutesAndLaddersRules)]
    assert names == ["links", "spinner", "max_rounds"]


# ------------------------------------------------------------------------------ the trace
@pytest.mark.parametrize("players", [1, 3])
def test_the_trace_replays_every_spin_and_ends_with_the_final_state(players):
    """Each turn's spin carries the piece from its square to the next turn's square; the end
    line's final squares are the scores, its turn the spins played, its round and seat the
    last spin's."""
    from tests.conformance.cases import resolve

    spec = get_game(GAME)
    rules, seats = resolve(GAME, players, policy="spinner")
    dest = dict(rules.links)
    for index in range(3):
        tr = spec.replay(rules, players, seats, 5, index)
        squares = [0] * players
        for n, t in enumerate(tr.turns):
            st = t["state"]
            assert (st["turn"], st["seat"], st["squares"]) == (n, n % players, squares)
            (a,) = t["actions"]
            assert a["from"] == squares[st["seat"]]
            to = a["from"] + a["spin"]
            assert a["reaches"] == (to if to <= 100 else None)
            assert a["square"] == (dest.get(to, to) if to <= 100 else a["from"])
            squares[st["seat"]] = a["square"]
        final = tr.end["final"]
        assert final["squares"] == squares == tr.end["scores"]
        assert final["winner"] == tr.end["winner"] and squares[final["winner"]] == 100
        last = tr.turns[-1]["state"]
        assert final["turn"] == len(tr.turns) == tr.end["turns"]
        assert (final["round"], final["seat"]) == (last["round"], last["seat"])
        assert "tiebreaks" not in tr.end
        assert f"seat {'ABCD'[final['winner']]} lands on 100 and wins" in tr.text()
