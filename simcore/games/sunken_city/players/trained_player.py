"""Sunken City's hook of the `trained` player (simcore.frame.trained): the features of a
candidate card from the deciding seat's view (docs/policies-sunken-city.md, "The trained
player").

A candidate is a card of the hand, as for the `search` player (players/search.py); the turn
after the card is the base player's (`heuristic_rest`). So each candidate's features describe
its afterstate: the whole turn is played on a copy of the position by `balanced` (the default
weights, the base player of the real turn), tracing off, its dice from a stream of the
decision's own (the same for every candidate: the cards are compared on the same rolls; the
game's stream is never touched), and the position after it is read from the seat's view:
treasures banked and carried by the seat and the best other seat, how far the adventurer is
from home and from the spirit, the hand left for the next turns, chips, how near the end is.
Sunken City hides nothing from a player (players/search.py), so every feature is what the seat
may see. Treasures are counted in the scoring's units (one a treasure, or value / 6 under
'value' scoring, as the search's evaluation counts them) and scaled by the treasures in play,
the cards by the rules' card set, so a model sees the race and not the rules' numbers.

The hook's scratch (XT_*, XFT_*) lies behind the players' (the contract's x_size and xf_size
count it; a game without a `trained` seat never touches it). The players' memoised tables (the
pieces' connections, the distance fields, the reach costs) are keyed by a signature of the lake
that two boards reached from one position may share, so none may outlive a candidate's turn:
they are computed once on the decision's position, the players' scratch is saved with them
(XT_SAVED), and restored before each candidate's turn and after the last, so each turn and the
real one that follows start from the tables of their own position (kept up to date as pieces
appear, as in any turn; the same values as computing them afresh, game for game: before
2026-12-05 they were dropped and computed afresh each time; now the same rows in 20-24% less
time, 20,000 games of `trained` in every seat at 2 to 4 players, 3c19324 against 35620fb).
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from simcore.frame.jit import kernel
from simcore.frame.rng import stream_for
from simcore.frame.tracebuf import T_HEADER
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine import psq, treasure, treasure_value
from simcore.games.sunken_city.players.common import INF, board_signature, threat
from simcore.games.sunken_city.players.fields import (
    distance_fields,
    piece_graph,
    reach_costs_memo,
    threat_table,
)
from simcore.games.sunken_city.players.scratch import (
    X_DIST_FROM_ADVENTURER,
    X_DIST_FROM_VILLAGE,
    X_MEMO_ADJACENT,
    X_MEMO_KEYS,
    X_SEARCH_NEIGHBOURS,
    X_SIZE,
    XF_SIZE,
)
from simcore.games.sunken_city.players.turn import heuristic_prepare, heuristic_rest, urgency
from simcore.games.sunken_city.players.weights import DEFAULT_WEIGHTS, WEIGHT_NAMES

# a candidate's features, in order (all read on the position after the candidate's whole turn)
F_OWN_BANKED = 0  # own treasures banked / treasures in play
F_OWN_CARRIED = 1  # own treasures carried (turned, not yet home) / treasures in play
F_BEST_BANKED = 2  # the most banked by another seat / treasures in play
F_BEST_CARRIED = 3  # the most carried by another seat / treasures in play
F_OTHERS_BANKED = 4  # the other seats' mean banked / treasures in play
F_LEAD = 5  # own potential (banked + CARRIED_WORTH carried) less the best other's / in play
F_HOME_DIST = 6  # movement points from the adventurer home / DIST_SCALE (0 at home)
F_AT_RISK = 7  # own carried times the spirit's threat to the adventurer / treasures in play
F_THREAT = 8  # the spirit's threat to the adventurer's piece (0..0.7, fields.threat_table)
F_OTHERS_CARRIED = 9  # all other seats' carried / treasures in play
F_HAND_CARDS = 10  # cards left in the hand / cards in the set (full again after the last)
F_HAND_MOVE = 11  # movement points of the hand / of the card set
F_HAND_RAISE = 12  # pieces of the hand / of the card set
F_HAND_ICONS = 13  # spirit icons of the hand / of the card set
F_CARD_MOVE = 14  # the candidate card's movement points / the set's largest
F_CARD_RAISE = 15  # the candidate card's pieces / the set's largest
F_CARD_ICON = 16  # 1 when the candidate card shows the spirit icon
F_CHIPS = 17  # own chips / CHIP_SCALE
F_BEST_CHIPS = 18  # the most chips of another seat / CHIP_SCALE
F_URGENCY = 19  # how near the end is, 0..1 (players/turn.urgency)
F_ENDING = 20  # 1 when an end condition is met (the game ends with this round)
F_SEATS_AFTER = 21  # seats still to play in this round after the seat / (players - 1)
F_NEEDED_ON_LAKE = 22  # own treasures still to turn whose house stands on the lake / in play
F_NEAREST_NEEDED = 23  # movement points to the nearest such house / DIST_SCALE (cap FAR)
TRAINED_WIDTH = 24

CARRIED_WORTH = 0.6  # a carried treasure in the lead (as players/search.CARRIED_WORTH)
DIST_SCALE = 10.0  # movement points a unit (about two cards' moves)
FAR = 2.0  # a distance feature's cap (unreachable)
CHIP_SCALE = 4.0  # chips a unit
STREAM_SALT = 0x5EA7ED  # mixed into the decision's own dice stream

# the hook's scratch, behind the players' (the contract's x_size and xf_size count it)
XT_SIM = X_SIZE  # [STATE_SIZE] the position a candidate's turn is played on
XT_TRACE = XT_SIM + S.STATE_SIZE  # [TRACE_WORDS] an int32 trace header, zeroed: tracing off
TRACE_WORDS = T_HEADER // 2  # (int64 words)
XT_DICE = XT_TRACE + TRACE_WORDS  # [1] the decision's own dice stream (uint64)
# [N_SAVED] the players' scratch (X_SEARCH_NEIGHBOURS up to X_SIZE) as it stands with the
# decision's position's tables computed: restored before each candidate's turn and the real one
X_PLAYERS = X_SEARCH_NEIGHBOURS
N_SAVED = X_SIZE - X_PLAYERS
XT_SAVED = XT_DICE + 1
TRAINED_X_SIZE = XT_SAVED + N_SAVED - X_SIZE
XFT_WEIGHTS = XF_SIZE  # [N_WEIGHTS] balanced's weights
N_MEMO = 8  # the memo keys (scratch.X_MEMO_KEYS ...)

# balanced's weights (the default preset) as the afterstate's player
BALANCED = tuple(float(DEFAULT_WEIGHTS[n]) for n in WEIGHT_NAMES)
N_WEIGHTS = len(BALANCED)
TRAINED_XF_SIZE = N_WEIGHTS


@kernel
def forget_fields(x):
    """Drop the players' memoised fields (scratch.X_MEMO_*): they are keyed by a signature of
    the lake that two boards reached from one position may share, so after a candidate's turn
    on the copy the next (and the real turn) compute them anew."""
    for k in range(N_MEMO):
        x[X_MEMO_KEYS + k] = 0


@kernel
def in_play(s, seat):
    """The seat's treasures in play (11, or 10 under 'short')."""
    n = 0
    for t in range(R.N_TREASURES):
        if treasure(s, seat, t) != S.OUT:
            n += 1
    return n


@kernel
def holdings(s, r, seat):
    """(banked, carried) of the seat, in the scoring's units (a treasure, or value / 6): the
    two sums search.potential folds into one (it is not rewritten on this one, since summing
    the two apart rounds differently under 'value' scoring and would move the search's rows)."""
    banked = 0.0
    carried = 0.0
    for t in range(R.N_TREASURES):
        st = treasure(s, seat, t)
        w = 1.0 if r[R.P_SCORING] == 0 else treasure_value(t) / 6.0
        if st == S.BANKED:
            banked += w
        elif st == S.CARRIED:
            carried += w
    return banked, carried


@kernel
def hand_features(s, r, seat, card, v, o):
    """The hand's and the candidate card's features into v[o + F_HAND_* / F_CARD_*]."""
    cards = 0
    raise_all = raise_hand = move_all = move_hand = icons_all = icons_hand = 0
    raise_top = move_top = 1
    for c in range(r[R.P_N_CARDS]):
        held = (s[S.O_HAND + seat] >> c) & 1
        cards += held
        a = r[R.R_CARDS + 3 * c]
        b = r[R.R_CARDS + 3 * c + 1]
        i = r[R.R_CARDS + 3 * c + 2]
        raise_all += a
        raise_hand += a * held
        move_all += b
        move_hand += b * held
        icons_all += i
        icons_hand += i * held
        raise_top = max(raise_top, a)
        move_top = max(move_top, b)
    v[o + F_HAND_CARDS] = cards / r[R.P_N_CARDS]
    v[o + F_HAND_RAISE] = raise_hand / max(raise_all, 1)
    v[o + F_HAND_MOVE] = move_hand / max(move_all, 1)
    v[o + F_HAND_ICONS] = icons_hand / max(icons_all, 1)
    v[o + F_CARD_RAISE] = r[R.R_CARDS + 3 * card] / raise_top
    v[o + F_CARD_MOVE] = r[R.R_CARDS + 3 * card + 1] / move_top
    v[o + F_CARD_ICON] = 1.0 if r[R.R_CARDS + 3 * card + 2] == 1 else 0.0


@kernel
def race_features(s, r, seat, v, o):
    """The treasures' and chips' features into v[o + ...] (F_OWN_* to F_OTHERS_CARRIED, the
    chips)."""
    n = r[R.P_PLAYERS]
    nt = max(in_play(s, seat), 1)
    own_b, own_c = holdings(s, r, seat)
    best_b = 0.0
    best_c = 0.0
    best_p = -1.0
    sum_b = 0.0
    sum_c = 0.0
    chips = 0
    for k in range(n):
        if k == seat:
            continue
        b, c = holdings(s, r, k)
        best_b = max(best_b, b)
        best_c = max(best_c, c)
        best_p = max(best_p, b + CARRIED_WORTH * c)
        sum_b += b
        sum_c += c
        chips = max(chips, s[S.O_CHIPS + k])
    v[o + F_OWN_BANKED] = own_b / nt
    v[o + F_OWN_CARRIED] = own_c / nt
    v[o + F_BEST_BANKED] = best_b / nt
    v[o + F_BEST_CARRIED] = best_c / nt
    v[o + F_OTHERS_BANKED] = sum_b / max(n - 1, 1) / nt
    v[o + F_LEAD] = (own_b + CARRIED_WORTH * own_c - max(best_p, 0.0)) / nt
    v[o + F_OTHERS_CARRIED] = sum_c / nt
    v[o + F_CHIPS] = s[S.O_CHIPS + seat] / CHIP_SCALE
    v[o + F_BEST_CHIPS] = chips / CHIP_SCALE
    return own_c / nt


@kernel
def scaled(d):
    """A distance in movement points as a feature (FAR when unreachable)."""
    return FAR if d >= INF else min(d / DIST_SCALE, FAR)


@kernel
def board_features(s, r, seat, x, xf, carried, v, o):
    """The adventurer's, the spirit's and the end's features into v[o + ...] (carried: own
    carried / in play)."""
    distance_fields(s, r, seat, x)
    threat_table(s, r, seat, xf)
    a = s[S.O_ADVENTURER_SLOT + seat]
    v[o + F_HOME_DIST] = 0.0 if a == S.VILLAGE else scaled(x[X_DIST_FROM_VILLAGE + a])
    t = threat(a, x, xf)
    v[o + F_THREAT] = t
    v[o + F_AT_RISK] = t * carried
    nt = max(in_play(s, seat), 1)
    need = 0
    near = INF
    for h in range(1, R.N_HOUSES + 1):
        slot = S.HOUSE_BASE + h - 1
        if treasure(s, seat, h - 1) == S.HOUSE_SIDE and psq(s, slot, 0) >= 0:
            need += 1
            near = min(near, x[X_DIST_FROM_ADVENTURER + slot])
    v[o + F_NEEDED_ON_LAKE] = need / nt
    v[o + F_NEAREST_NEEDED] = scaled(near)
    v[o + F_URGENCY] = urgency(s, r)
    v[o + F_ENDING] = 1.0 if s[S.S_END_REASON] >= 0 else 0.0
    n = r[R.P_PLAYERS]
    v[o + F_SEATS_AFTER] = (n - 1 - seat) / max(n - 1, 1)


@kernel
def trained_features(s, r, seat, x, at, n, xf, out):
    """The TRAINED_WIDTH features of each of the n candidate cards x[at : at + n] into
    xf[out + i * TRAINED_WIDTH ...] (float64): each card's whole turn played by `balanced` on
    a copy of s in the hook's scratch (XT_*, XFT_*; the module's docstring), then its
    afterstate read; the players' scratch restored after the last (the position's tables)."""
    sim = x[XT_SIM : XT_SIM + S.STATE_SIZE]
    tr = x[XT_TRACE : XT_TRACE + TRACE_WORDS].view(np.int32)  # zeroed with the game: off
    rng = x[XT_DICE : XT_DICE + 1].view(np.uint64)
    w = xf[XFT_WEIGHTS : XFT_WEIGHTS + N_WEIGHTS]
    for k in range(N_WEIGHTS):
        w[k] = BALANCED[k]
    adjacent = x[X_MEMO_ADJACENT]
    forget_fields(x)
    if adjacent != 0:
        # the connection tables describe some lake (X_TABLES_LAKE): brought up to this one by
        # comparing the lakes square by square (piece_graph), never by the signature alone
        x[X_MEMO_ADJACENT] = -1
    piece_graph(s, x)
    distance_fields(s, r, seat, x)
    reach_costs_memo(s, r, seat, x)
    for k in range(N_SAVED):
        x[XT_SAVED + k] = x[X_PLAYERS + k]
    for i in range(n):
        card = x[at + i]
        for k in range(S.STATE_SIZE):
            sim[k] = s[k]
        for k in range(N_SAVED):
            x[X_PLAYERS + k] = x[XT_SAVED + k]
        stream_for(uint64(STREAM_SALT + board_signature(s)), uint64(s[S.S_TURN]), rng)
        heuristic_prepare(sim, r, seat, xf)
        heuristic_rest(sim, r, tr, seat, card, w, rng, False, x, xf)
        o = out + i * TRAINED_WIDTH
        carried = race_features(sim, r, seat, xf, o)
        hand_features(sim, r, seat, card, xf, o)
        board_features(sim, r, seat, x, xf, carried, xf, o)
    for k in range(N_SAVED):
        x[X_PLAYERS + k] = x[XT_SAVED + k]
