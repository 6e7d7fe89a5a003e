"""Sumeria's hook of the `trained` player (simcore.frame.trained; docs/policies-sumeria.md, "The
trained player"): the features of each candidate of a decision from the deciding seat's view.

The candidates are the search's (search.py): at a setup placement or an action the ranks of
the base player's best actions, at a tile choice the tile types on display. The base player
is the default preset, `balanced`, whose weights the `trained` seat's row holds for
search_step; the hook has no weights, so it ranks with BASE_WEIGHTS, the same numbers
(tests/sumeria/test_trained_sumeria.py checks it), and rank i is the action search_step
plays for candidate i.

A candidate's features describe the position after it (its afterstate): the action is tried
on the state and undone, as the heuristic's reference evaluation does (policies.eval_add,
eval_remove, eval_move: the trader put or lifted, the city-state tiles swapped), and the
control ranking of the city-states scored this round and next is read from it. Everything is
public in Sumeria (the bag is counts, search.py), so every feature reads only what the seat
sees. Scales are the rules' (the tiles of a round, of a game, of a type, the traders), so a
model sees shares, not counts, on other variants too.
"""

from __future__ import annotations

import numpy as np

from simcore.frame.jit import kernel
from simcore.games.sumeria import board as B
from simcore.games.sumeria import rules as R
from simcore.games.sumeria import state as S
from simcore.games.sumeria.engine import (
    cnt,
    display,
    exchange_positions,
    lift_trader,
    put_trader,
    turn_index,
)
from simcore.games.sumeria.engine_round import control_key, keep_top_two, ranking, tile_points
from simcore.games.sumeria.policies import W_DENY, tile_value, try_move, undo_move
from simcore.games.sumeria.search import ADD, NN, REMOVE, WIDTH, XF_RANK, rank_candidates

# `balanced`'s weights (simcore/games/sumeria/__init__.py, in policies.WEIGHT_NAMES' order):
# the ranking of the candidates, as search_step ranks them with the seat's row
BASE_WEIGHTS = np.array([1.0, 0.1, 0.2, 0.15, 0.0, 0.4, 0.05, 0.5])

# a candidate's features, in order
F_PROGRESS = 0  # the game played: (round + part of the round played) / rounds
F_MY_POINTS = 1  # own points (tiles held, the final table) / the tiles of a game
F_LEAD = 2  # own points - the best opponent's, / the tiles of a game
F_SETUP = 3  # 1 for a setup placement
F_ADD = 4  # 1 for an Add
F_MOVE = 5  # 1 for a Move
F_REMOVE = 6  # 1 for a Remove
F_CHOOSE = 7  # 1 for a tile choice
F_VALUE = 8  # the base player's value of the candidate - its best candidate's (<= 0)
F_BASE_CHOICE = 9  # 1 for the base player's own choice (its best candidate)
F_NOW_MINE = 10  # after it: tiles I would win at this round's scoring / the round's tiles
F_NOW_BEST_OPP = 11  # after it: the most one opponent would win there / the round's tiles
F_NEXT_MINE = 12  # after it: tiles I would win at next round's scoring (as ranked now)
F_NEXT_BEST_OPP = 13  # after it: the most one opponent would win there / the round's tiles
F_RESERVE = 14  # after it: traders in my reserve / traders a player has
F_CITIES = 15  # after it: cities my traders hold / city-states
F_TILE_GAIN = 16  # a tile choice: the points the tile adds to mine / tiles of a type
F_TILE_DENY = 17  # a tile choice: the points it would add to the second place's / the same
F_MY_LEFT = 18  # my actions left in this round after this one / turns a round
F_OPP_LEFT = 19  # the opponents' actions before this round's scoring / their turns a round
F_AT_RISK = 20  # after it: the most of my tiles this round one more opponent trader would take
F_WITHIN = 21  # after it: the most tiles this round one more trader of mine would win
F_EDGE = 22  # after it: my tiles this round if the last scored state and the next changed places
F_NOW_PTS = 23  # after it: the points this round's scoring would add to mine, ranked now
F_NOW_PTS_OPP = 24  # after it: the most it would add to one opponent's
F_NOW_LEAD = 25  # after it: my points with this round's - the best opponent's with theirs
TRAINED_WIDTH = 26

# players' float scratch (state.XF_SIZE) behind the search's ranking (search.XF_RANK)
XF_WON = XF_RANK + WIDTH  # [2 x 4] outlook: tiles each seat would win, this round then next
XF_PTS = XF_WON + 2 * R.MAX_PLAYERS  # [4] outlook: the points each seat would gain this round
XF_LEFT = XF_PTS + R.MAX_PLAYERS  # [4] place_points: the tiles of each type not yet taken
XF_HELD = XF_LEFT + B.N_TYPES  # [4] each seat's points so far (points), once a decision
assert XF_HELD + R.MAX_PLAYERS <= S.XF_SIZE


@kernel
def round_tiles(r):
    """The Influence tiles a round's scoring shares out (tiles_per_state summed), at least 1."""
    n = 0
    for p in range(r[R.P_N_SCORED]):
        n += r[R.R_TILES + p]
    return max(n, 1)


@kernel
def points(s, r, seat):
    """The seat's points so far: the final table on the tiles it holds, with its head start."""
    total = r[R.R_SEAT_POINTS + seat]
    for t in range(B.N_TYPES):
        total += tile_points(r, s[S.O_HELD + seat * B.N_TYPES + t])
    return total


@kernel
def held_points(s, r, xf):
    """Each seat's points so far into xf[XF_HELD:] (the same for every candidate)."""
    for seat in range(r[R.P_PLAYERS]):
        xf[XF_HELD + seat] = points(s, r, seat)


@kernel(inline="always")
def share_of(seat, first, second, picks, total):
    """The tiles `seat` takes at a scored place (picks to the controller, the rest second)."""
    if seat == first:
        return picks
    if seat == second:
        return total - picks
    return 0


@kernel
def ranking_plus(s, r, st, b):
    """(controller, second) of city-state `st` were seat b to have one more trader there (the
    control key's 64 more; without a trader there, its turn order alone)."""
    players = r[R.P_PLAYERS]
    first, second, k1, k2 = -1, -1, -1, -1
    for seat in range(players):
        if seat == b:
            if cnt(s, st, seat) == 0:
                k = 64 + players - 1 - turn_index(s, r, seat)
            else:
                k = control_key(s, r, st, seat) + 64
        elif cnt(s, st, seat) == 0:
            continue
        else:
            k = control_key(s, r, st, seat)
        first, second, k1, k2 = keep_top_two(first, second, k1, k2, seat, k)
    return first, second


@kernel
def contest(s, r, me, st, mine, picks, total):
    """(F_AT_RISK's and F_WITHIN's tiles at one scored place holding city-state st, where I
    take `mine` of its `total` tiles as it stands): the most of mine one more trader of one
    opponent would take, and the most one more trader of mine would win."""
    f, sc = ranking_plus(s, r, st, me)
    gain = share_of(me, f, sc, picks, total) - mine
    risk = 0
    for other in range(r[R.P_PLAYERS]):
        if other != me:
            f, sc = ranking_plus(s, r, st, other)
            risk = max(risk, mine - share_of(me, f, sc, picks, total))
    return risk, gain


@kernel
def place_points(s, r, p, first, second, picks, xf):
    """Adds to xf[XF_PTS + seat] the points the tiles above scored place p give: the
    controller takes `picks` of them one at a time, each the type whose next tile is worth most
    to it on the final table and the tiles it holds now (of equal points the first type; a
    second tile of a type taken here is valued as the first: measured stronger, see
    docs/policies-sumeria.md), the second place the rest (valued exactly)."""
    for t in range(B.N_TYPES):
        xf[XF_LEFT + t] = display(s, p, t)
    if first >= 0:
        h = S.O_HELD + first * B.N_TYPES
        for _ in range(picks):
            bt = -1
            bg = -1
            for t in range(B.N_TYPES):
                if xf[XF_LEFT + t] > 0:
                    g = tile_points(r, s[h + t] + 1) - tile_points(r, s[h + t])
                    if g > bg:
                        bg = g
                        bt = t
            if bt < 0:
                break
            xf[XF_PTS + first] += bg
            xf[XF_LEFT + bt] -= 1.0
    if second >= 0:
        h = S.O_HELD + second * B.N_TYPES
        for t in range(B.N_TYPES):
            n = int(xf[XF_LEFT + t])
            xf[XF_PTS + second] += tile_points(r, s[h + t] + n) - tile_points(r, s[h + t])


@kernel
def outlook(s, r, me, xf, o, tiles):
    """F_NOW_* and F_NEXT_* of the position as it stands into xf[o ...]: the tiles each seat
    would win if the city-states at the scored places were ranked now (the controller's picks,
    the second place the rest; next round's places with tiles_per_state's counts), mine and
    the most of one opponent, each over the round's tiles. Also F_CITIES, the points of this
    round's scoring (F_NOW_PTS ..., place_points; the points so far from xf[XF_HELD:]), and at
    this round's places one more trader's effect (F_AT_RISK, F_WITHIN: contest) and the last
    one's state exchanged with the next place's (F_EDGE)."""
    k = r[R.P_N_SCORED]
    players = r[R.P_PLAYERS]
    for i in range(XF_LEFT - XF_WON):
        xf[XF_WON + i] = 0.0
    cities = 0
    risk = 0
    gain = 0
    edge = 0
    last_mine = 0
    last_picks = 0
    last_total = 0
    for p in range(2 * k):
        st = s[S.O_ORDER + p]
        if p < k:
            total = 0
            for t in range(B.N_TYPES):
                total += display(s, p, t)
            kp = r[R.R_TILES + p]
        else:
            kp = r[R.R_TILES + p - k]
            total = kp
        first, second = ranking(s, r, st)
        picks = min(kp - 1 if kp >= 2 else kp, total)
        at = XF_WON if p < k else XF_WON + R.MAX_PLAYERS
        if first >= 0:
            xf[at + first] += picks
        if second >= 0:
            xf[at + second] += total - picks
        if p < k:
            place_points(s, r, p, first, second, picks, xf)
            mine = share_of(me, first, second, picks, total)
            lost, won = contest(s, r, me, st, mine, picks, total)
            risk = max(risk, lost)
            gain = max(gain, won)
            if p == k - 1:
                last_mine, last_picks, last_total = mine, picks, total
        elif p == k:
            edge = share_of(me, first, second, last_picks, last_total) - last_mine
    for st in range(B.N_STATES):
        if s[S.O_LOC + st * B.LOCS_PER_STATE] == me:
            cities += 1
    best_now = 0.0
    best_next = 0.0
    for seat in range(players):
        if seat != me:
            best_now = max(best_now, xf[XF_WON + seat])
            best_next = max(best_next, xf[XF_WON + R.MAX_PLAYERS + seat])
    xf[o + F_NOW_MINE] = xf[XF_WON + me] / tiles
    xf[o + F_NOW_BEST_OPP] = best_now / tiles
    xf[o + F_NEXT_MINE] = xf[XF_WON + R.MAX_PLAYERS + me] / tiles
    xf[o + F_NEXT_BEST_OPP] = best_next / tiles
    xf[o + F_CITIES] = cities / B.N_STATES
    xf[o + F_AT_RISK] = risk / tiles
    xf[o + F_WITHIN] = gain / tiles
    xf[o + F_EDGE] = edge / tiles
    game_tiles = tiles * r[R.P_ROUNDS]
    mine = xf[XF_HELD + me] + xf[XF_PTS + me]
    best_pts = 0.0
    best = -1.0e9
    for seat in range(players):
        if seat != me:
            best_pts = max(best_pts, xf[XF_PTS + seat])
            best = max(best, xf[XF_HELD + seat] + xf[XF_PTS + seat])
    xf[o + F_NOW_PTS] = xf[XF_PTS + me] / game_tiles
    xf[o + F_NOW_PTS_OPP] = best_pts / game_tiles
    xf[o + F_NOW_LEAD] = (mine - best) / game_tiles


@kernel
def action_outlook(s, r, me, code, setup, xf, o, tiles):
    """outlook after candidate action `code` (search.py's coding) of `me`, tried on the state
    and undone as the heuristic's trials do (traders and city-state tiles; no counters).
    Returns the change of my reserve (-1 an Add or placement, +1 a Remove, 0 a Move)."""
    kind = ADD if setup else code // NN
    a = (code // B.N_LOCS) % B.N_LOCS
    if kind == ADD:
        shift = not setup or r[R.P_SETUP_SHIFTS] == 1
        st = B.LOC_STATE[a]
        p = s[S.O_POS + st]
        put_trader(s, a, me)
        swap = shift and p > 0
        if swap:
            exchange_positions(s, p, p - 1)
        outlook(s, r, me, xf, o, tiles)
        if swap:
            exchange_positions(s, p, p - 1)
        lift_trader(s, a)
        return -1
    if kind == REMOVE:
        st = B.LOC_STATE[a]
        p = s[S.O_POS + st]
        lift_trader(s, a)
        swap = p < B.N_STATES - 1
        if swap:
            exchange_positions(s, p, p + 1)
        outlook(s, r, me, xf, o, tiles)
        if swap:
            exchange_positions(s, p, p + 1)
        put_trader(s, a, me)
        return 1
    to = code % B.N_LOCS
    o1, o2, ps, pd = try_move(s, r, me, a, to)
    outlook(s, r, me, xf, o, tiles)
    undo_move(s, me, a, to, o1, o2, ps, pd)
    return 0


@kernel
def common(s, r, seat, xf, o, game_tiles):
    """The features every candidate of the decision shares: the game played, the actions left,
    the points so far (xf[XF_HELD:], held_points)."""
    players = r[R.P_PLAYERS]
    turns = r[R.P_TURNS]
    part = 0.0
    if s[S.S_PHASE] == S.PH_TURN:
        part = (s[S.S_TURN] * players + s[S.S_IN_TURN]) / (turns * players)
    elif s[S.S_PHASE] == S.PH_CHOOSE:
        part = 1.0
    xf[o + F_PROGRESS] = (s[S.S_ROUND] + part) / r[R.P_ROUNDS]
    my_left = 0.0
    opp_left = 0.0
    if s[S.S_PHASE] == S.PH_SETUP:
        my_left = 1.0
        opp_left = 1.0
    elif s[S.S_PHASE] == S.PH_TURN:
        after = players - 1 - s[S.S_IN_TURN] + (turns - 1 - s[S.S_TURN]) * players
        mine_after = turns - 1 - s[S.S_TURN]
        my_left = mine_after / turns
        opp_left = (after - mine_after) / max(turns * (players - 1), 1)
    xf[o + F_MY_LEFT] = my_left
    xf[o + F_OPP_LEFT] = opp_left
    mine = xf[XF_HELD + seat]
    best = -1.0e9
    for other in range(players):
        if other != seat:
            best = max(best, xf[XF_HELD + other])
    xf[o + F_MY_POINTS] = mine / game_tiles
    xf[o + F_LEAD] = (mine - best) / game_tiles
    for f in range(F_SETUP, F_MY_LEFT):
        xf[o + f] = 0.0
    for f in range(F_AT_RISK, TRAINED_WIDTH):
        xf[o + f] = 0.0


@kernel
def choice_features(s, r, seat, x, at, n, xf, out, tiles, game_tiles):
    """The features of the n tile types x[at : at + n] of a tile choice: the tile held (my
    points and lead after it), its points to me and to the second place (who receives what
    is left), the base player's value of it (policies.heuristic_decision, without noise)."""
    second = s[S.S_SECOND]
    per_type = max(r[R.P_TILES_PER_TYPE], 1)
    best = -1.0e18
    for i in range(n):
        o = out + i * TRAINED_WIDTH
        t = x[at + i]
        common(s, r, seat, xf, o, game_tiles)
        h = S.O_HELD + seat * B.N_TYPES + t
        gain = tile_points(r, s[h] + 1) - tile_points(r, s[h])
        deny = 0
        v = tile_value(s, r, seat, t, BASE_WEIGHTS)
        if second >= 0:
            g = S.O_HELD + second * B.N_TYPES + t
            deny = tile_points(r, s[g] + 1) - tile_points(r, s[g])
            v += BASE_WEIGHTS[W_DENY] * tile_value(s, r, second, t, BASE_WEIGHTS)
        xf[o + F_CHOOSE] = 1.0
        xf[o + F_MY_POINTS] += gain / game_tiles
        xf[o + F_LEAD] += gain / game_tiles
        xf[o + F_TILE_GAIN] = gain / per_type
        xf[o + F_TILE_DENY] = deny / per_type
        xf[o + F_VALUE] = v
        best = max(best, v)
        outlook(s, r, seat, xf, o, tiles)
        xf[o + F_RESERVE] = s[S.O_RESERVE + seat] / max(r[R.P_TRADERS], 1)
    first = -1
    for i in range(n):
        o = out + i * TRAINED_WIDTH
        xf[o + F_VALUE] -= best
        if first < 0 and xf[o + F_VALUE] == 0.0:
            first = i
            xf[o + F_BASE_CHOICE] = 1.0


@kernel
def trained_features(s, r, seat, x, at, n, xf, out):
    """The TRAINED_WIDTH features of each of the n candidates x[at : at + n] into
    xf[out + i * TRAINED_WIDTH ...] (float64): at a tile choice the tile types
    (choice_features), at a placement or an action the ranks of search.rank_candidates (its
    codes in x[S.X_OPTS:], values in xf[XF_RANK:], the players' scratch, as search_step's
    ranking uses it), each tried on the state and undone."""
    tiles = float(round_tiles(r))
    game_tiles = tiles * r[R.P_ROUNDS]
    held_points(s, r, xf)
    if s[S.S_PHASE] == S.PH_CHOOSE:
        choice_features(s, r, seat, x, at, n, xf, out, tiles, game_tiles)
        return
    setup = s[S.S_PHASE] == S.PH_SETUP
    m = rank_candidates(s, r, seat, BASE_WEIGHTS, x, xf)
    reserve = s[S.O_RESERVE + seat]
    traders = max(r[R.P_TRADERS], 1)
    for i in range(min(n, m)):
        o = out + i * TRAINED_WIDTH
        code = x[S.X_OPTS + x[at + i]]
        common(s, r, seat, xf, o, game_tiles)
        kind = code // NN
        if setup:
            xf[o + F_SETUP] = 1.0
        elif kind == ADD:
            xf[o + F_ADD] = 1.0
        elif kind == REMOVE:
            xf[o + F_REMOVE] = 1.0
        else:
            xf[o + F_MOVE] = 1.0
        xf[o + F_VALUE] = xf[XF_RANK + x[at + i]] - xf[XF_RANK]
        xf[o + F_BASE_CHOICE] = 1.0 if x[at + i] == 0 else 0.0
        d = action_outlook(s, r, seat, code, setup, xf, o, tiles)
        xf[o + F_RESERVE] = (reserve + d) / traders
    x[S.X_RANKED_AT] = s[S.S_DECISION] + 1
    x[S.X_RANKED_SEAT] = seat
    x[S.X_RANKED_N] = m
