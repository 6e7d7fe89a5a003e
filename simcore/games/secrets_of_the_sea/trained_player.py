"""Secrets of the Sea's hook of the `trained` player (simcore.frame.trained): the features of
each candidate of a stopping decision (search_player.search_options: take the lit tile, give
the exchange tile to an opponent for their best tile, stop over an empty space, dive on), from
the deciding seat's view (docs/policies-secrets-of-the-sea.md, "The trained player").

Only what the seat may see: the standings (every tile in front of a player lies face up), the
tiles left of each kind, the lamp's kinds, the public tables of unseen tiles. A candidate's
points are expected points from those tables, as `ev` values them (policies.lit_value, and for
diving on `ev`'s dynamic program over the column below the lamp), never the face-down value
of the tile under the lamp. Points are scaled by the rules (a seat's share of all the points
of the game, the mean points of a tile), so a model sees the race, not the mix's numbers.
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.secrets_of_the_sea import board as B
from simcore.games.secrets_of_the_sea import rules as R
from simcore.games.secrets_of_the_sea import state as S
from simcore.games.secrets_of_the_sea.engine import (
    bonus_category,
    dice_available,
    front_kind,
    lamp_kind,
    space_at,
    tile_value,
)
from simcore.games.secrets_of_the_sea.policies import (
    XF_ARRIVAL_VALUE,
    best_wreck,
    bonus_gain,
    fight_value,
    kind_value,
    landing_score,
    lit_value,
    mean_hidden,
)
from simcore.games.secrets_of_the_sea.search_player import (
    MAX_SEATS,
    OPT_DIVE,
    OPT_GIVE,
    OPT_STOP,
    OPT_TAKE,
)

# a candidate's features, in order
F_ENDS_DIVE = 0  # 1: the candidate ends the turn now (take, give, stop); 0: dive on
F_GAIN = 1  # expected points the candidate brings the seat / a tile's mean points: the tile
#             and the bonus it completes (take, give), 0 (stop), the next roll's (dive on)
F_OWN = 2  # the seat's standing now / a seat's share of the game's points
F_LEAD = 3  # (own standing + the gain - the best other standing after the candidate)
#             / (LEAD_SCALE shares): the race the candidate leaves (a give robs its target)
F_LEFT = 4  # points still to be won (unseen tiles, wreck tiles, bonus tiles) / all the game's
F_WRECK_LEFT = 5  # wreck tiles left / wreck tiles: the game's clock (the wreck runs out first)
F_LAST_WRECK = 6  # 1: one wreck tile left (whoever reaches the wreck ends the game)
F_ENDS_GAME = 7  # 1: the candidate takes the last tile of a type (light, dark, bonus): the end
F_DICE = 8  # dice free / 2 (one die left: diving on is riskier)
F_DEPTH = 9  # the lamp's row / the wreck's row
F_BUST = 10  # dive on: the chance that the roll shows X on every free die (the dive ends with
#              nothing); 0 for the other candidates
TRAINED_WIDTH = 11

ROW_SCORES = B.WRECK_ROW + 1  # next_roll_value's scratch: the landing scores after the values
LEAD_SCALE = 0.25  # a lead of a quarter of a seat's share counts 1


@kernel
def game_points(r):
    """(all the points of the game: every tile's and the bonus tiles', the mean points of a
    tile): the rules' scales of the features."""
    tot = 0.0
    for t in range(r[R.P_N_TILES]):
        tot += tile_value(r, t)
    tot += R.N_BONUS * r[R.P_BONUS_POINTS]
    return tot, tot / (r[R.P_N_TILES] + R.N_BONUS)


@kernel
def points_left(s, r):
    """The points still to be won: the unseen tiles of both regions, the wreck tiles left, the
    bonus tiles not yet taken (public)."""
    left = 0.0
    for k in range(2 * S.N_HC):
        left += s[S.O_HID_SUM + k]
    for t in range(R.WRECK_BASE, r[R.P_N_TILES]):
        if s[S.O_OWNER + t] == S.ON_BOARD:
            left += tile_value(r, t)
    return left + s[S.S_BONUS_LEFT] * r[R.P_BONUS_POINTS]


@kernel(inline="always")
def standing(s, r, seat):
    """A seat's standing (play.standing: its points and its head start)."""
    return s[S.O_POINTS + seat] + r[R.R_SEAT_POINTS + seat]


@kernel
def best_other(s, r, seat, robbed, loss):
    """The best standing of the other seats, seat `robbed` `loss` points fewer."""
    best = -1.0e9
    for o in range(r[R.P_PLAYERS]):
        if o != seat:
            v = standing(s, r, o) - (loss if o == robbed else 0.0)
            if v > best:
                best = v
    return best


@kernel
def ends_game(s, r, seat, b, region):
    """Taking a tile of region `region` (-1: none leaves the board) that counts for bonus b
    takes the last tile of a type: the region's last, or the last bonus tile."""
    if region >= 0 and s[S.S_LIGHT_LEFT + region] == 1:
        return True
    return s[S.S_BONUS_LEFT] == 1 and bonus_gain(s, r, seat, b) > 0.0


@kernel
def x_chance(r):
    """The chance that one die shows X."""
    n = 0
    for k in range(r[R.P_DIE_N]):
        if r[R.R_DIE + k] == R.X:
            n += 1
    return n / r[R.P_DIE_N]


@kernel
def region_mean(s, g):
    """The mean points of an unseen tile of region g (monsters at their pips, no bonus): what
    an unlit space is worth at a glance."""
    n = 0
    v = 0
    for c in range(S.N_HC):
        n += s[S.O_HID_N + g * S.N_HC + c]
        v += s[S.O_HID_SUM + g * S.N_HC + c]
    return v / n if n > 0 else 0.0


@kernel
def landing_value(s, r, seat, col, q, nd, unlit):
    """The points the lamp finds at row q of column col, at a glance (taking what it shows):
    the best wreck tile, 0 on an empty space, a fight with a monster whose front was seen,
    a lit kind's expected points (policies.kind_value), an unlit space the region's mean
    (unlit[g])."""
    if q >= B.WRECK_ROW:
        _, v = best_wreck(s, r, seat)
        return v if v > 0.0 else 0.0
    sp = space_at(col, q)
    t = s[S.O_SPACE + sp]
    if t == S.EMPTY:
        return 0.0
    known = s[S.O_KNOWN + sp]
    if known == S.FRONT:
        return fight_value(s, r, seat, tile_value(r, t), nd)
    if known == S.LIT:
        return kind_value(s, r, seat, B.SPACE_REGION[sp], lamp_kind(r, t), nd)
    return unlit[B.SPACE_REGION[sp]]


@kernel
def next_roll_value(s, r, seat, nd, xf):
    """Diving on, one roll ahead: the expected points at the space the base player's die
    reaches (policies.landing_score picks it, as `balanced` does), 0 when every free die
    shows X (or, exact-wreck, no die may move). Scratch: xf[XF_ARRIVAL_VALUE + q] the landing
    value of row q, xf[XF_ARRIVAL_VALUE + ROW_SCORES + q] its landing_score."""
    pos = s[S.S_POS]
    col = s[S.S_COL]
    unlit = (region_mean(s, 0), region_mean(s, 1))
    nf = r[R.P_DIE_N]
    exact = r[R.P_OVERSHOOT] == 0
    for a in range(nf):  # the rows the faces reach
        q = landing_row(r, pos, r[R.R_DIE + a], exact)
        if q > 0:
            xf[XF_ARRIVAL_VALUE + q] = landing_value(s, r, seat, col, q, nd, unlit)
            xf[XF_ARRIVAL_VALUE + ROW_SCORES + q] = landing_score(s, r, col, q)
    tot = 0.0
    for a in range(nf):
        qa = landing_row(r, pos, r[R.R_DIE + a], exact)
        if nd == 1:
            if qa > 0:
                tot += xf[XF_ARRIVAL_VALUE + qa]
            continue
        for b in range(nf):
            qb = landing_row(r, pos, r[R.R_DIE + b], exact)
            if qa > 0 and (
                qb <= 0
                or xf[XF_ARRIVAL_VALUE + ROW_SCORES + qa] >= xf[XF_ARRIVAL_VALUE + ROW_SCORES + qb]
            ):
                tot += xf[XF_ARRIVAL_VALUE + qa]
            elif qb > 0:
                tot += xf[XF_ARRIVAL_VALUE + qb]
    return tot / (nf if nd == 1 else nf * nf)


@kernel(inline="always")
def landing_row(r, pos, face, exact):
    """The row a die showing `face` takes the lamp to from row pos, -1 when it cannot move
    (an X; exact-wreck: past the wreck)."""
    if face == R.X or (exact and pos + face > B.WRECK_ROW):
        return -1
    return pos + face if pos + face < B.WRECK_ROW else B.WRECK_ROW


@kernel
def trained_features(s, r, seat, x, at, n, xf, out):
    """The TRAINED_WIDTH features of each of the n candidates x[at : at + n] into
    xf[out + i * TRAINED_WIDTH ...] (float64). xf's players' part: next_roll_value's
    scratch (ev's, which ev fills before it reads)."""
    total, unit = game_points(r)
    share = total / r[R.P_PLAYERS]
    own = standing(s, r, seat)
    nd = dice_available(s)
    pos = s[S.S_POS]
    q = space_at(s[S.S_COL], pos)
    region = B.SPACE_REGION[q]
    dive = next_roll_value(s, r, seat, nd, xf)
    bust = x_chance(r) ** nd
    left = points_left(s, r) / total
    n_wreck = r[R.P_N_WRECK]
    wreck = s[S.S_WRECK_LEFT]
    for i in range(n):
        c = x[at + i]
        o = out + i * TRAINED_WIDTH
        robbed = -1
        loss = 0.0
        ends = False
        if c == OPT_DIVE:
            gain = dive
        elif c == OPT_STOP:
            gain = 0.0
        elif c == OPT_TAKE:
            t = s[S.S_TILE]
            k = lamp_kind(r, t)
            if k == R.EXCHANGE:  # kept for its points
                gain = mean_hidden(s, region, R.EXCHANGE)
                ends = ends_game(s, r, seat, -1, region)
            else:
                gain = lit_value(s, r, seat, nd)
                b = k if k < R.N_TYPES else (R.BONUS_SEAGRASS if k == R.SEAGRASS else -1)
                ends = ends_game(s, r, seat, b, region)
        else:  # give the exchange tile to `robbed` for their tile t
            g = c - OPT_GIVE
            robbed = g % MAX_SEATS
            t = g // MAX_SEATS
            loss = float(tile_value(r, t))
            gain = loss + bonus_gain(s, r, seat, front_kind(r, t))
            ends = ends_game(s, r, seat, bonus_category(r, t), region)
        xf[o + F_ENDS_DIVE] = 0.0 if c == OPT_DIVE else 1.0
        xf[o + F_GAIN] = gain / unit
        xf[o + F_OWN] = own / share
        lead = own + gain - best_other(s, r, seat, robbed, loss)
        xf[o + F_LEAD] = lead / (LEAD_SCALE * share)
        xf[o + F_LEFT] = left
        xf[o + F_WRECK_LEFT] = wreck / n_wreck if n_wreck > 0 else 0.0
        xf[o + F_LAST_WRECK] = 1.0 if wreck == 1 else 0.0
        xf[o + F_ENDS_GAME] = 1.0 if ends else 0.0
        xf[o + F_DICE] = nd / R.N_DICE
        xf[o + F_DEPTH] = pos / B.WRECK_ROW
        xf[o + F_BUST] = bust if c == OPT_DIVE else 0.0
