"""Sunken City heuristic players: the speed-ups keep every decision.

The players keep tables between their searches (piece connections, distance fields, reach
costs) and update them in place when a piece is raised or the lake changed since; they are
checked here against tables computed from scratch. And fixed games must give the result
rows recorded before the speed-ups (docs/performance.md): a change to these digests means
the players decide differently, which needs the ladder of docs/policies-sunken-city.md
measured again.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from simcore import get_game
from simcore.frame.standing import STANDING_COLUMNS
from simcore.games.sunken_city import engine as E
from simcore.games.sunken_city import engine_moves as EM
from simcore.games.sunken_city import engine_raising as ER
from simcore.games.sunken_city import engine_turn as ET
from simcore.games.sunken_city import play
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.players import fields as P
from simcore.games.sunken_city.players import scratch as PS
from simcore.games.sunken_city.players.common import board_signature
from simcore.games.sunken_city.players.weights import HAND_SET_WEIGHTS
from simcore.games.sunken_city.rules import N_SQUARES, R_CARDS, SunkenCityRules, pack
from simcore.games.sunken_city.state import N_SLOTS
from simcore.run.runner import play_chunk

# Rows digests recorded with commit 0ba4f00 (before the heuristic players' speed-ups), checked
# mode on: (players, variants, overrides, lineup, seed, rotate seats, games) -> sha256 prefix.
# They were recorded under the rules of that time, which are named options since issue #23:
# raising split around the other actions (action_order=intermingled, then the default) and a
# chip also in the middle of a move (chip_timing=any-time).
OLD = {"action_order": "intermingled", "chip_timing": "any-time"}
# They were recorded with the hand-set `balanced` of that time (issue #27 made the tuned weights
# `balanced`): HS is that player, written as `balanced` with the hand-set weights; the table
# tests below play it too, on the positions they were written for.
HS = "balanced:" + ",".join(f"{k}={v}" for k, v in HAND_SET_WEIGHTS.items())
ROW_DIGESTS = [
    ((3, [], OLD, f"{HS},{HS},{HS}", 1, False, 300), "7bbdbf89319dcc57"),
    ((3, [], OLD, "greedy,cautious,aggressive", 2, True, 300), "40b6af88a15ed7ce"),
    ((2, [], OLD, f"{HS},aggressive", 3, True, 300), "137a56380a0f5182"),
    (
        (4, ["short+no-chips"], OLD, f"aggressive,{HS},cautious,greedy", 4, True, 200),
        "e693997101b44eb8",
    ),
    (
        (3, [], {"chip_timing": "any-time"}, f"{HS},random,cautious", 5, True, 200),
        "1e7292425131b7c8",
    ),
    ((2, ["single-square-streets"], OLD, f"greedy,{HS}", 6, False, 200), "bda6f584a35a2e03"),
]


@pytest.mark.parametrize("case,digest", ROW_DIGESTS, ids=lambda c: str(c))
def test_heuristic_games_give_the_rows_recorded_before_the_speed_ups(case, digest):
    players, variants, overrides, lineup, seed, rotate, games = case
    spec = get_game("sunken-city")
    rules = spec.resolve_rules(variants, overrides, None, players)
    seats = spec.parse_policies(lineup, players)
    _, _, rows = play_chunk(
        "sunken-city", players, rules, seats, seed, 0, games, rotate, checked=True, keep_rows=True
    )
    assert (rows[:, spec.columns.index("error")] == 0).all()
    # the columns of 0ba4f00 (the advanced game's counters came later, all 0 here, and the
    # experience metrics of #26)
    advanced = {"sinking_phases", "banishments", "grotto_moves", "sinking_steps"}
    keep = [i for i, c in enumerate(spec.columns) if c not in advanced | set(STANDING_COLUMNS)]
    assert not rows[:, [i for i, c in enumerate(spec.columns) if c in advanced]].any()
    rows = rows[:, keep]
    got = hashlib.sha256(np.ascontiguousarray(rows, dtype="<i8").tobytes()).hexdigest()[:16]
    assert got == digest


def _game_positions(players=3, lineup=None, games=4, variant=None):
    """The positions before every turn of a few heuristic games (by default three hand-set
    `balanced` players, HS: the positions these tests were written for)."""
    lineup = lineup or f"{HS},{HS},{HS}"
    spec = get_game("sunken-city")
    rules = SunkenCityRules() if variant is None else variant
    r = pack(rules, players)
    ids, w = spec.policy_arrays(spec.parse_policies(lineup, players))
    row = np.zeros(len(spec.columns), np.int64)
    out = []
    for g in range(games):
        tr = S.TRACE.new(400, True)
        play.play_game(r, ids, w, np.uint64(11), np.uint64(g), False, True, tr, row)
        out.append([snap.astype(np.int64) for snap in S.TRACE.snapshots(tr)])
    return r, out


def _fresh(s, r, seat):
    x = PS.new_scratch()
    P.distance_fields(s, r, seat, x)
    P.reach_costs(s, r, seat, x)
    return x


def _adjacency(s, x):
    """{slot: (ordered neighbours, bit set)} of the pieces on the lake, from the tables."""
    out = {}
    for p in range(N_SLOTS):
        if s[S.O_PIECE_SQUARES + 2 * p] >= 0:
            n = int(x[PS.X_ADJACENT_COUNT + p])
            lst = tuple(int(v) for v in x[PS.X_ADJACENT + 8 * p : PS.X_ADJACENT + 8 * p + n])
            bits = (int(x[PS.X_ADJACENT_BITS + 2 * p]), int(x[PS.X_ADJACENT_BITS + 2 * p + 1]))
            out[p] = (lst, bits)
    return out


def test_connection_tables_follow_the_lake_between_turns():
    """One scratch through a whole game: the connections brought up to date from the squares
    that changed equal tables built from scratch, and the ordered lists are piece_neighbours'."""
    r, games = _game_positions()
    for positions in games:
        x = PS.new_scratch()
        for s in positions:
            P.piece_graph(s, x)
            fresh = PS.new_scratch()
            P.piece_graph(s, fresh)
            assert _adjacency(s, x) == _adjacency(s, fresh)
            nb = PS.new_scratch()
            for p in range(N_SLOTS):
                if s[S.O_PIECE_SQUARES + 2 * p] >= 0:
                    n = E.piece_neighbours(s, p, nb, 0)
                    assert tuple(nb[:n]) == _adjacency(s, x)[p][0]


@pytest.mark.parametrize("street_squares", [2, 1])
def test_fields_updated_after_a_raised_piece_equal_new_searches(street_squares):
    """Raise a street (every fifth free spot in turn) or a house and update the tables in place
    (raised): X_DIST_FROM_ADVENTURER, X_DIST_FROM_VILLAGE, X_DIST_FROM_SPIRIT, X_REACH_COST (while
    building points are left) and the connections equal a computation from scratch."""
    variant = SunkenCityRules(street_squares=street_squares)
    r, games = _game_positions(games=2, variant=variant)
    tr = S.TRACE.new()
    checked = kept = stale_seen = 0
    for positions in games:
        for s0 in positions[::3]:
            seat = int(s0[S.S_SEAT])
            cards = [c for c in range(6) if s0[S.O_HAND + seat] >> c & 1 and r[R_CARDS + 3 * c]]
            if not cards:
                continue
            spots = np.zeros(4 * N_SQUARES, np.int64)
            base = s0.copy()
            ET.do_card(base, r, tr, seat, cards[0])
            n = ER.list_street_spots(base, r, spots, 0)
            houses = np.zeros(N_SQUARES, np.int64)
            nh = ER.list_house_squares(base, r, houses, 0)
            moves = [("street", spots[2 * i], spots[2 * i + 1]) for i in range(0, n, 5)]
            moves += [("house", houses[i], -1) for i in range(0, nh, 7)]
            for kind, a, b in moves:
                s = base.copy()
                x = _fresh(s, r, seat)
                P.piece_graph(s, x)
                x[PS.X_MEMO_REACH] = P.adventurer_key(
                    board_signature(s), seat, s[S.O_ADVENTURER_SLOT + seat]
                )
                sig0 = board_signature(s)
                if kind == "street":
                    if not E.street_available(s):
                        continue
                    assert ER.do_street(s, r, tr, a, b) == 0
                    slot = s[S.O_SQUARE_PIECE + a]
                else:
                    h = next((h for h in range(1, 11) if ER.house_in_grotto(s, r, h)), None)
                    if h is None:
                        continue
                    assert ER.do_house(s, r, tr, h, a) == 0
                    slot = S.HOUSE_BASE + h - 1
                P.raised(s, r, seat, x, slot, sig0)
                fresh = _fresh(s, r, seat)
                P.piece_graph(s, fresh)
                regions = [
                    (PS.X_DIST_FROM_ADVENTURER, N_SLOTS),
                    (PS.X_DIST_FROM_VILLAGE, N_SLOTS),
                    (PS.X_DIST_FROM_SPIRIT, N_SLOTS),
                ]
                key = P.adventurer_key(board_signature(s), seat, s[S.O_ADVENTURER_SLOT + seat])
                if s[S.S_RAISE_LEFT] > 0:
                    # kept for the next piece
                    assert x[PS.X_MEMO_REACH] == key
                    regions.append((PS.X_REACH_COST, N_SQUARES))
                    kept += 1
                else:
                    # the last piece: not kept, and its memo key says so
                    assert x[PS.X_MEMO_REACH] != key
                for region, size in regions:
                    assert np.array_equal(x[region : region + size], fresh[region : region + size])
                # the bit sets are exact at once; the ordered lists of the pieces beside the
                # new one are stale until a search reads them (adjacent)
                stale = int(x[PS.X_STALE_ADJACENT]) | int(x[PS.X_STALE_ADJACENT + 1])
                stale_seen += stale != 0
                bits = {p: v[1] for p, v in _adjacency(s, x).items()}
                assert bits == {p: v[1] for p, v in _adjacency(s, fresh).items()}
                for p in range(N_SLOTS):
                    P.adjacent(s, x, p)
                assert x[PS.X_STALE_ADJACENT] == 0 and x[PS.X_STALE_ADJACENT + 1] == 0
                assert _adjacency(s, x) == _adjacency(s, fresh)
                checked += 1
    assert checked > 50 and kept > 10 and stale_seen > 10


@pytest.mark.parametrize("street_squares", [2, 1])
def test_step_check_is_membership_in_the_step_targets(street_squares):
    """do_step's legality test (can_step_to) says yes exactly for the slots step_targets
    lists, for every seat and every slot, from the village and from the lake."""
    r, games = _game_positions(
        players=4,
        lineup=f"{HS},random,greedy,random",
        variant=SunkenCityRules(street_squares=street_squares),
    )
    x = PS.new_scratch()
    seen = 0
    for positions in games:
        for s in positions[::2]:
            for seat in range(4):
                n = EM.step_targets(s, r, seat, x, S.X_NEIGHBOURS)
                legal = {int(v) for v in x[S.X_NEIGHBOURS : S.X_NEIGHBOURS + n]}
                for to in range(-1, N_SLOTS):
                    assert EM.can_step_to(s, r, seat, to) == (to in legal), (seat, to)
                seen += n
    assert seen > 100
