"""Sumeria's end of a round and of the game as compiled kernels: control of the scored
city-states and the influence tiles they give (seed 002, "End of a Round"), the next first
player, the shift of the city-state order, the automatic steps between decisions (`advance`),
the tile choice (`do_choose`), and the final scores (seed 002, "End of the Game"). The setup
and the players' actions are in engine.py.

Arguments as in engine.py.
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sumeria import board as B
from simcore.games.sumeria import engine as E
from simcore.games.sumeria import rules as R
from simcore.games.sumeria import state as S

# ---------------------------------------------------------------------------------------
# End of a round (seed 002, "End of a Round")


@kernel(inline="always")
def control_key(s, r, st, seat):
    """The ranking key of `seat` in city-state `st`: "the player with the most traders";
    ties: "the tied player who has a trader in the city", then "the most traders in the
    towns", then "the tied player who played first during that round"."""
    players = r[R.P_PLAYERS]
    order = players - 1 - E.turn_index(s, r, seat)
    k = E.cnt(s, st, seat) * 64 + E.towns(s, st, seat) * 8 + order
    if E.city_holder(s, st) == seat:
        k += 32
    return k


@kernel(inline="always")
def keep_top_two(first, second, k1, k2, seat, k):
    """(first, second, their keys) after seat's key k is ranked against them."""
    if k > k1:
        return seat, first, k, k1
    if k > k2:
        return first, seat, k1, k
    return first, second, k1, k2


@kernel(inline="always")
def ranking(s, r, st):
    """(controller, second) of city-state `st`; -1 where no (further) player has a trader."""
    first, second, k1, k2 = -1, -1, -1, -1
    for seat in range(r[R.P_PLAYERS]):
        if E.cnt(s, st, seat) == 0:
            continue
        first, second, k1, k2 = keep_top_two(
            first, second, k1, k2, seat, control_key(s, r, st, seat)
        )
    return first, second


@kernel
def display_kinds(s, p):
    n = 0
    for t in range(B.N_TYPES):
        if E.display(s, p, t) > 0:
            n += 1
    return n


@kernel
def display_total(s, p):
    n = 0
    for t in range(B.N_TYPES):
        n += E.display(s, p, t)
    return n


@kernel
def take_tile(s, tr, p, seat, t, chosen):
    s[S.O_DISPLAY + p * B.N_TYPES + t] -= 1
    s[S.O_HELD + seat * B.N_TYPES + t] += 1
    s[S.S_PICKS] -= 1
    E.record(tr, s, S.A_TAKE, p, seat, t, chosen)


@kernel
def begin_position(s, r, tr):
    """Rank the city-state at the position under way and set up its tile share: "chooses 2
    of the 3 ... 1 of the 2 ... receives the Influence tile above" (all but one when there
    are 2 or more; tiles_per_state)."""
    p = s[S.S_CHOOSE_POS]
    st = s[S.O_ORDER + p]
    first, second = ranking(s, r, st)
    E.record(tr, s, S.A_CONTROL, p, st, first, second, display_total(s, p))
    k = r[R.R_TILES + p]
    picks = k - 1 if k >= 2 else k
    if first < 0:
        s[S.S_EMPTY_SCORED] += 1
        picks = 0
    else:
        E.count(s, first, S.C_CONTROLS)
        if second >= 0:
            E.count(s, second, S.C_SECONDS)
        else:
            s[S.S_SOLE_SCORED] += 1
        s[S.S_SEAT] = first
    s[S.S_PICKS] = min(picks, display_total(s, p))
    s[S.S_SECOND] = second
    return first


@kernel
def settle_position(s, r, tr, first):
    """Finish the position when no choice is left: the controller's remaining picks (all of
    one type, or all the tiles), then "The second-place player receives the remaining
    Influence tile"; when nobody or a single player has traders, "all its Influence tiles
    are discarded" / "the remaining tiles are discarded". Returns 1 when a choice is needed."""
    p = s[S.S_CHOOSE_POS]
    if s[S.S_PICKS] > 0 and s[S.S_PICKS] < display_total(s, p) and display_kinds(s, p) > 1:
        return 1
    while s[S.S_PICKS] > 0:
        for t in range(B.N_TYPES):
            if E.display(s, p, t) > 0:
                take_tile(s, tr, p, first, t, 0)
                break
    second = s[S.S_SECOND]
    for t in range(B.N_TYPES):
        n = E.display(s, p, t)
        if n == 0:
            continue
        s[S.O_DISPLAY + p * B.N_TYPES + t] = 0
        if second >= 0:
            s[S.O_HELD + second * B.N_TYPES + t] += n
            E.record(tr, s, S.A_RECEIVE, p, second, t, n)
        else:
            s[S.O_DISC + t] += n
            s[S.S_DISCARDED] += n
            E.record(tr, s, S.A_DISCARD, p, t, n)
    return 0


@kernel
def last_player(s, r):
    """ "The player who had the fewest traders for the first City-State is last for the round
    ... If there is a tie ..., this tie-breaking process is repeated for each City-State
    until there is a single player with the fewest traders." Rulings: first_player_states
    city-states are consulted in order of importance; then first_player_fallback."""
    players = r[R.P_PLAYERS]
    mask = (1 << players) - 1
    for p in range(r[R.P_FP_STATES]):
        st = s[S.O_ORDER + p]
        low = 1 << 30
        for seat in range(players):
            if mask & (1 << seat) and E.cnt(s, st, seat) < low:
                low = E.cnt(s, st, seat)
        nmask = 0
        n = 0
        last = -1
        for seat in range(players):
            if mask & (1 << seat) and E.cnt(s, st, seat) == low:
                nmask |= 1 << seat
                n += 1
                last = seat
        mask = nmask
        if n == 1:
            return last
    best = -1
    for seat in range(players):
        if mask & (1 << seat):
            if best < 0:
                best = seat
            else:
                later = E.turn_index(s, r, seat) > E.turn_index(s, r, best)
                if later == (r[R.P_FP_FALLBACK] == 0):
                    best = seat
    return best


@kernel
def shift_order(s, r):
    """ "The first 3 City-State tiles ... are set aside. The remaining tiles are moved 3 ranks
    to the left ... the 3 scored City-States are placed back in reverse order (i.e. as the
    8th, 7th, and 6th)"."""
    k = r[R.P_N_SCORED]
    for _ in range(k):
        a = s[S.O_ORDER]
        for p in range(B.N_STATES - 1):
            s[S.O_ORDER + p] = s[S.O_ORDER + p + 1]
        s[S.O_ORDER + B.N_STATES - 1] = a
    lo = B.N_STATES - k
    hi = B.N_STATES - 1
    while lo < hi:
        a = s[S.O_ORDER + lo]
        s[S.O_ORDER + lo] = s[S.O_ORDER + hi]
        s[S.O_ORDER + hi] = a
        lo += 1
        hi -= 1
    for p in range(B.N_STATES):
        s[S.O_POS + s[S.O_ORDER + p]] = p


@kernel
def finish_round(s, r, tr, rng):
    """The next first player ("the player to their left therefore receives the first player
    marker"), the order shift, then the next round's 6 tiles, or the end after the last
    round."""
    players = r[R.P_PLAYERS]
    last = last_player(s, r)
    first = (last + 1) % players
    s[S.S_SEAT] = first
    E.record(tr, s, S.A_NEW_ROUND, first, last)
    shift_order(s, r)
    s[S.S_ROUND] += 1
    s[S.S_TURN] = 0
    s[S.S_IN_TURN] = 0
    s[S.S_FIRST] = first
    if s[S.S_ROUND] >= r[R.P_ROUNDS]:
        s[S.S_PHASE] = S.PH_OVER
        s[S.S_GAME_OVER] = 1
        s[S.S_END_REASON] = S.END_ROUNDS
        return
    E.count(s, first, S.C_FIRST_ROUNDS)
    E.draw_display(s, r, tr, rng, True)
    s[S.S_PHASE] = S.PH_TURN


@kernel
def advance(s, r, tr, rng):
    """Run the automatic steps of PH_SCORE (the position S_CHOOSE_POS not yet begun): each
    scored city-state in order of importance, stopping (PH_CHOOSE) when a controller has a
    real choice of tiles; after the last one, finish the round. Does nothing in the other phases."""
    while s[S.S_PHASE] == S.PH_SCORE:
        p = s[S.S_CHOOSE_POS]
        if p >= r[R.P_N_SCORED]:
            finish_round(s, r, tr, rng)
            return
        first = begin_position(s, r, tr)
        if settle_position(s, r, tr, first) == 1:
            s[S.S_PHASE] = S.PH_CHOOSE
            return
        s[S.S_CHOOSE_POS] += 1


@kernel
def do_choose(s, r, tr, seat, t):
    """A controller takes one influence tile of type t from the position under way ("chooses
    2 of the 3 Influence tiles"). Then the scoring goes on (PH_SCORE, see `advance`)."""
    if s[S.S_PHASE] != S.PH_CHOOSE or seat != s[S.S_SEAT] or t < 0 or t >= B.N_TYPES:
        return E.ERR_ILLEGAL
    p = s[S.S_CHOOSE_POS]
    if E.display(s, p, t) == 0 or s[S.S_PICKS] <= 0:
        return E.ERR_ILLEGAL
    take_tile(s, tr, p, seat, t, 1)
    s[S.S_CHOICES] += 1
    if settle_position(s, r, tr, seat) == 0:
        s[S.S_CHOOSE_POS] += 1
        s[S.S_PHASE] = S.PH_SCORE
    return 0


# ---------------------------------------------------------------------------------------
# End of the game (seed 002, "End of the Game")


@kernel
def tile_points(r, n):
    """Points of n tiles of one type: the table 1, 3, 6, 10, 15, 21, 28, 36, 45 (n(n+1)/2),
    or n under linear scoring."""
    if r[R.P_SCORING] == 1:
        return n
    return n * (n + 1) // 2


@kernel
def scores(s, r, score, tiebreak):
    """Fill score[seat] (points of all types) and tiebreak[seat] ("the most Influence tiles
    of a single type")."""
    for seat in range(r[R.P_PLAYERS]):
        total = 0
        most = 0
        for t in range(B.N_TYPES):
            n = E.held(s, seat, t)
            total += tile_points(r, n)
            if n > most:
                most = n
        score[seat] = total + r[R.R_SEAT_POINTS + seat]  # compensation (seat_points)
        tiebreak[seat] = most
