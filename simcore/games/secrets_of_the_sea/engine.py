"""Secrets of the Sea rules as compiled kernels: setup, the dive, taking, fights, the end.

No policy logic lives here. Every ``do_*`` function checks the legality of its action and
returns 0, or ERR_ILLEGAL without changing anything, so every player goes through the same
legal-action path. Quotes are from seed 003 (the rulebook); rulings and reconstructions are
from ../shared/GAME-DATA.md (docs/rules-secrets-of-the-sea.md).

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), rng = uint64[1].

The kernels on the path of every dive step (the roll, the move, the end check) are compiled
with inline="always": a call between kernels passes each array argument as seven words on the
stack, and those calls were about a third of a turn (docs/performance.md). Functions called
once a turn or less stay calls (compile time).
"""

from __future__ import annotations

import numpy as np

from simcore.frame.jit import kernel
from simcore.frame.rng import next_u64, rand_below
from simcore.frame.tracebuf import put_record, write_snapshot
from simcore.games.secrets_of_the_sea import board as B
from simcore.games.secrets_of_the_sea import rules as R
from simcore.games.secrets_of_the_sea import state as S

# Error codes: 0 = fine. ERR_ILLEGAL is returned by do_* for an illegal action; the others
# come from engine_invariants.check_invariants (checked mode).
ERR_ILLEGAL = 1
ERR_TILES = 2  # a tile in no place or in two places
ERR_REGION = 3  # a tile on a space of the other region
ERR_KNOWN = 4  # knowledge flags broken
ERR_TABLES = 5  # hidden-tile tables or held counts disagree with the tiles
ERR_BONUS = 6  # a bonus tile held by a seat out of range
ERR_PHASE = 7  # the dive state is inconsistent
ERR_END = 8  # the game goes on although an end condition holds (or the reverse)
ERR_TRACE = 9  # the trace buffer overflowed
ERR_NAMES = (
    "ok",
    "illegal action",
    "tiles not conserved",
    "tile in the wrong region",
    "knowledge flags broken",
    "tables disagree with the tiles",
    "bonus tile misplaced",
    "dive state inconsistent",
    "end condition not applied",
    "trace overflow",
)


# ---------------------------------------------------------------------------------------
# Small accessors (inlined)


@kernel
def lamp_kind(r, t):
    """What the lamp shows of tile t (SHELL..CAVE, WRECK for wreck tiles)."""
    return r[R.R_LAMP + t]


@kernel
def front_kind(r, t):
    return r[R.R_FRONT + t]


@kernel
def tile_value(r, t):
    return r[R.R_VALUE + t]


@kernel
def space_at(col, pos):
    """The space under the lamp in column col at row pos (1..10)."""
    return col * B.ROWS + pos - 1


@kernel
def count(s, seat, c):
    s[S.O_CNT + seat * S.N_CNT + c] += 1


@kernel
def hidden_category(r, t):
    """The hidden-tile category (O_HID_*) of board tile t."""
    f = r[R.R_FRONT + t]
    if r[R.R_LAMP + t] == R.CAVE:
        return S.HC_CAVE_MONSTER if f == R.MONSTER else S.HC_CAVE
    return f


@kernel
def bonus_category(r, t):
    """The bonus tile that tile t counts for (-1 none): its treasure type, monsters, seagrass.
    Wreck tiles count for their type when wreck_counts_for_bonus (ruling)."""
    f = r[R.R_FRONT + t]
    if r[R.R_LAMP + t] == R.WRECK and r[R.P_WRECK_BONUS] == 0:
        return -1
    if f < R.N_TYPES:
        return f
    if f == R.MONSTER:
        return R.BONUS_MONSTER
    if f == R.SEAGRASS:
        return R.BONUS_SEAGRASS
    return -1


@kernel
def dice_available(s):
    """Number of dice not set aside in this dive."""
    b = s[S.S_BLOCKED]
    return R.N_DICE - (b & 1) - ((b >> 1) & 1)


@kernel
def die_roll(s, i):
    return s[S.S_DIE0 + i]


# ---------------------------------------------------------------------------------------
# Trace records


@kernel
def record(tr, s, kind, a=0, b=0, c=0, d=0, e=0, f=0):
    """Append one action record (turn, seat, kind, a..f) when tracing is on."""
    put_record(tr, S.ACTION_WIDTH, s[S.S_TURN], s[S.S_SEAT], kind, a, b, c, d, e, f, 0, 0, 0)


@kernel
def snapshot(tr, s):
    """Append the whole state (before a turn) to the trace when tracing is on."""
    write_snapshot(tr, s, S.ACTION_WIDTH, S.STATE_SIZE)


# ---------------------------------------------------------------------------------------
# Setup (seed 003, "Setup")


@kernel(inline="always")
def reset_dive(s):
    """The lamp back on the boat, both dice free: "Return the lamp to the boat"."""
    s[S.S_PHASE] = S.PH_ROLL
    s[S.S_COL] = -1
    s[S.S_POS] = 0
    s[S.S_DIE0] = -1
    s[S.S_DIE0 + 1] = -1
    s[S.S_BLOCKED] = 0
    s[S.S_TILE] = -1


@kernel
def setup_fixed(s, r):
    """Everything of the start but the shuffle: tiles in order on their region's spaces,
    wreck tiles at the wreck, bonus tiles free, seat 0 to play."""
    s[:] = 0
    for g in range(2):
        for k in range(B.PER_REGION):
            s[S.O_SPACE + B.REGION_SPACES[g, k]] = g * B.PER_REGION + k
    for t in range(r[R.P_N_TILES]):
        s[S.O_OWNER + t] = S.ON_BOARD
    for b in range(R.N_BONUS):
        s[S.O_BONUS + b] = -1
    s[S.S_END_REASON] = -1
    reset_dive(s)


@kernel
def setup(s, r, tr, rng):
    """The starting position: "Shuffle all treasure tiles with the light blue back ... place
    them on the designated spaces in the upper part", the dark ones in the lower part (a
    Fisher-Yates shuffle of each region), the wreck tiles face up at the wreck, the bonus
    tiles beside the board. "The youngest player starts": seat 0."""
    setup_fixed(s, r)
    for g in range(2):
        for k in range(B.PER_REGION - 1, 0, -1):
            j = rand_below(rng, k + 1)
            a = S.O_SPACE + B.REGION_SPACES[g, k]
            b = S.O_SPACE + B.REGION_SPACES[g, j]
            t = s[a]
            s[a] = s[b]
            s[b] = t
    recount(s, r)


@kernel
def recount(s, r):
    """Recompute the held counts, the hidden-tile tables and the tiles-left counts from where
    the tiles are."""
    s[S.S_LIGHT_LEFT] = 0
    s[S.S_DARK_LEFT] = 0
    s[S.S_WRECK_LEFT] = 0
    s[S.S_BONUS_LEFT] = 0
    s[S.S_HELD_TREASURES] = 0
    for b in range(R.N_BONUS):
        if s[S.O_BONUS + b] < 0:
            s[S.S_BONUS_LEFT] += 1
    for k in range(R.MAX_PLAYERS * R.N_BONUS):
        s[S.O_HELD + k] = 0
    for k in range(R.MAX_PLAYERS):
        s[S.O_POINTS + k] = 0
    for b in range(R.N_BONUS):
        if s[S.O_BONUS + b] >= 0:
            s[S.O_POINTS + s[S.O_BONUS + b]] += r[R.P_BONUS_POINTS]
    for k in range(2 * S.N_HC):
        s[S.O_HID_N + k] = 0
        s[S.O_HID_SUM + k] = 0
        s[S.O_UNLIT + k] = 0
    for t in range(r[R.P_N_TILES]):
        o = s[S.O_OWNER + t]
        if o >= 0:
            s[S.O_POINTS + o] += tile_value(r, t)
            b = bonus_category(r, t)
            if b >= 0:
                s[S.O_HELD + o * R.N_BONUS + b] += 1
            if front_kind(r, t) < R.N_TYPES:
                s[S.S_HELD_TREASURES] |= np.int64(1) << t
        elif o == S.ON_BOARD and t >= R.WRECK_BASE:
            s[S.S_WRECK_LEFT] += 1
    for q in range(B.N_SPACES):
        t = s[S.O_SPACE + q]
        if t != S.EMPTY:
            s[S.S_LIGHT_LEFT + B.SPACE_REGION[q]] += 1
        if t == S.EMPTY or s[S.O_KNOWN + q] == S.FRONT:
            continue
        k = B.SPACE_REGION[q] * S.N_HC + hidden_category(r, t)
        s[S.O_HID_N + k] += 1
        s[S.O_HID_SUM + k] += tile_value(r, t)
        if s[S.O_KNOWN + q] == S.UNLIT:
            s[S.O_UNLIT + k] += 1


# ---------------------------------------------------------------------------------------
# The dice (seed 003, "Playing the Game", "Dive deeper")


@kernel(inline="always")
def usable_die(s, r, i):
    """Die i may be chosen: it is free, shows a number, and the full number can be moved
    ("the full number shown must be moved"; with overshoot_to_wreck=False the wreck must be
    reached exactly)."""
    if (s[S.S_BLOCKED] >> i) & 1:
        return False
    d = s[S.S_DIE0 + i]
    if d <= R.X:
        return False
    if r[R.P_OVERSHOOT] == 0 and s[S.S_POS] + d > B.WRECK_ROW:
        return False
    return True


@kernel(inline="always")
def apply_roll(s, r, tr, d0, d1):
    """Use the faces d0, d1 for a roll of the free dice (a die set aside keeps -1). "If you
    roll an X, set that die aside. You cannot dive with this die." "If both dice show an X,
    your turn is unfortunately over" -- and with one free die, its X ends the turn too. Legal
    at the start of the turn and as "dive deeper" over a lit tile or an empty space."""
    ph = s[S.S_PHASE]
    if s[S.S_GAME_OVER] == 1 or not (ph == S.PH_ROLL or ph == S.PH_LIT or ph == S.PH_EMPTY):
        return ERR_ILLEGAL
    first = ph == S.PH_ROLL
    for i in range(R.N_DICE):
        if (s[S.S_BLOCKED] >> i) & 1:
            s[S.S_DIE0 + i] = -1
        else:
            d = d0 if i == 0 else d1
            s[S.S_DIE0 + i] = d
            if d == R.X:
                s[S.S_BLOCKED] |= 1 << i
    any_usable = False
    for i in range(R.N_DICE):
        if usable_die(s, r, i):
            any_usable = True
    seat = s[S.S_SEAT]
    record(tr, s, S.A_ROLL, s[S.S_DIE0], s[S.S_DIE0 + 1], s[S.S_BLOCKED], 0 if any_usable else 1)
    if first and any_usable:
        s[S.S_DIVES] += 1
        count(s, seat, S.C_DIVES)
    if not any_usable:
        s[S.S_BUSTS] += 1
        count(s, seat, S.C_BUSTS)
        end_turn(s, r, tr)
        return 0
    s[S.S_PHASE] = S.PH_CHOOSE
    s[S.S_TILE] = -1
    return 0


@kernel(inline="always")
def draw_index(r, base, rng):
    """rand_below(rng, n) for the n of the draw thresholds r[base : base + N_THRESH]
    (rules.draw_thresholds): the same draw of the stream, the same number, counted with
    whole-number compares (no conversion to float and back, a shorter wait for the
    branches that depend on the roll)."""
    x = np.int64(next_u64(rng) >> np.uint64(11))
    a = np.int64(x >= r[base]) + np.int64(x >= r[base + 1]) + np.int64(x >= r[base + 2])
    b = np.int64(x >= r[base + 3]) + np.int64(x >= r[base + 4]) + np.int64(x >= r[base + 5])
    c = np.int64(x >= r[base + 6]) + np.int64(x >= r[base + 7]) + np.int64(x >= r[base + 8])
    d = np.int64(x >= r[base + 9]) + np.int64(x >= r[base + 10]) + np.int64(x >= r[base + 11])
    return (a + b) + (c + d)


@kernel
def roll_face(r, rng):
    """A face of one die (uniform over the rules' faces): rand_below(rng, r[P_DIE_N])."""
    return r[R.R_DIE + draw_index(r, R.R_DIE_T, rng)]


@kernel(inline="always")
def roll_free_dice(s, r, rng):
    """Roll the dice not set aside (die 0 first): (d0, d1), -1 for a die set aside."""
    d0 = -1
    d1 = -1
    if (s[S.S_BLOCKED] & 1) == 0:
        d0 = roll_face(r, rng)
    if (s[S.S_BLOCKED] & 2) == 0:
        d1 = roll_face(r, rng)
    return d0, d1


@kernel(inline="always")
def do_roll(s, r, tr, rng):
    """Roll the free dice: the turn's first roll, or "Dive deeper: ... roll both dice again"
    (only the free ones; a die set aside is not rolled)."""
    ph = s[S.S_PHASE]
    if s[S.S_GAME_OVER] == 1 or not (ph == S.PH_ROLL or ph == S.PH_LIT or ph == S.PH_EMPTY):
        return ERR_ILLEGAL
    d0, d1 = roll_free_dice(s, r, rng)
    return apply_roll(s, r, tr, d0, d1)


@kernel(inline="always")
def move_target(s, r, i):
    """The row the lamp reaches with die i (WRECK_ROW for the wreck)."""
    p = s[S.S_POS] + s[S.S_DIE0 + i]
    return B.WRECK_ROW if p > B.WRECK_ROW else p


@kernel(inline="always")
def do_move(s, r, tr, die, col):
    """Choose die `die` and (on the first move of the dive) the buoy `col`; move the lamp
    straight down the full number, empty spaces counting ("empty spaces ... also count").
    "in this dive you may only dive at this one buoy". Then light what is there."""
    if s[S.S_GAME_OVER] == 1 or s[S.S_PHASE] != S.PH_CHOOSE or die < 0 or die >= R.N_DICE:
        return ERR_ILLEGAL
    if not usable_die(s, r, die):
        return ERR_ILLEGAL
    if s[S.S_COL] >= 0:
        if col != s[S.S_COL]:
            return ERR_ILLEGAL
    elif col < 0 or col >= B.COLS:
        return ERR_ILLEGAL
    frm = s[S.S_POS]
    s[S.S_COL] = col
    s[S.S_POS] = move_target(s, r, die)
    s[S.S_MOVES] += 1
    arrive(s, r, tr, die, frm)
    return 0


@kernel(inline="always")
def arrive(s, r, tr, die, frm):
    """What the lamp finds: the wreck, an empty space, a monster (to be fought at once: "When
    a sea monster appears in the light of the lamp, you must turn the tile ... over"), or a
    tile whose kind -- never its value -- all players now see."""
    pos = s[S.S_POS]
    col = s[S.S_COL]
    if pos == B.WRECK_ROW:
        s[S.S_PHASE] = S.PH_WRECK
        record(tr, s, S.A_MOVE, die, col, frm, pos, -2, R.WRECK)
        if s[S.S_WRECK_LEFT] == 0:
            end_turn(s, r, tr)  # (test positions only: the game ends with the last one)
        return
    q = space_at(col, pos)
    t = s[S.O_SPACE + q]
    if t == S.EMPTY:
        s[S.S_PHASE] = S.PH_EMPTY
        s[S.S_TILE] = -1
        record(tr, s, S.A_MOVE, die, col, frm, pos, -1, -1)
        return
    if s[S.O_KNOWN + q] == S.UNLIT:
        s[S.O_KNOWN + q] = S.LIT
        s[S.O_UNLIT + B.SPACE_REGION[q] * S.N_HC + hidden_category(r, t)] -= 1
    s[S.S_TILE] = t
    lamp = lamp_kind(r, t)
    record(tr, s, S.A_MOVE, die, col, frm, pos, t, lamp)
    s[S.S_PHASE] = S.PH_FIGHT if lamp == R.MONSTER else S.PH_LIT


# ---------------------------------------------------------------------------------------
# Taking tiles, bonus tiles, the end of the game


@kernel
def forget_hidden(s, r, q, t):
    """Tile t on space q is no longer hidden (taken, or its front seen): update the tables."""
    if s[S.O_KNOWN + q] == S.FRONT:
        return
    k = B.SPACE_REGION[q] * S.N_HC + hidden_category(r, t)
    s[S.O_HID_N + k] -= 1
    s[S.O_HID_SUM + k] -= tile_value(r, t)
    if s[S.O_KNOWN + q] == S.UNLIT:
        s[S.O_UNLIT + k] -= 1


@kernel
def give_tile(s, r, t, seat, delta):
    """Tile t goes to (delta=1) or leaves (delta=-1) seat's tiles: the held counts and the
    seat's points follow."""
    b = bonus_category(r, t)
    if b >= 0:
        s[S.O_HELD + seat * R.N_BONUS + b] += delta
    s[S.O_POINTS + seat] += delta * tile_value(r, t)


@kernel(inline="always")
def bonus_needed(r, seat, b):
    """Tiles the seat needs for bonus b: bonus_thresholds, the seagrass bonus's less the seat's
    seat_seagrass (a designer's compensation)."""
    return r[R.R_SEAT_THR + seat * R.N_BONUS + b]


@kernel
def claim_bonuses(s, r, tr, seat):
    """ "As soon as a player has the number shown on a bonus tile ... in front of them, they
    may take the corresponding round bonus tile" (always taken: ruling); "These bonus tiles
    cannot be taken away". "Only the player who first finds seagrass three times receives the
    seagrass bonus"."""
    for b in range(R.N_BONUS):
        if s[S.O_BONUS + b] < 0 and s[S.O_HELD + seat * R.N_BONUS + b] >= bonus_needed(r, seat, b):
            s[S.O_BONUS + b] = seat
            s[S.O_POINTS + seat] += r[R.P_BONUS_POINTS]
            s[S.S_BONUS_LEFT] -= 1
            record(tr, s, S.A_BONUS, b, seat)


@kernel(inline="always")
def end_condition(s, r):
    """The first end condition that holds, -1 none: "The game ends immediately when the last
    tile of one tile type (bonus tiles, light blue treasure tiles, dark blue treasure tiles,
    wreck tiles) has been taken". From the counts of tiles left (check_invariants compares
    them with a recount)."""
    if s[S.S_BONUS_LEFT] == 0:
        return S.END_BONUS
    if s[S.S_LIGHT_LEFT] == 0:
        return S.END_LIGHT
    if s[S.S_DARK_LEFT] == 0:
        return S.END_DARK
    if s[S.S_WRECK_LEFT] == 0:
        return S.END_WRECK
    return -1


@kernel(inline="always")
def lift_lamp_tile(s, r, t, seat):
    """Tile t leaves the space under the lamp for `seat` (the caller then counts it as held
    with give_tile): the hidden-tile tables, the space and the region's tiles left follow."""
    q = space_at(s[S.S_COL], s[S.S_POS])
    forget_hidden(s, r, q, t)
    s[S.O_SPACE + q] = S.EMPTY
    s[S.O_KNOWN + q] = S.UNLIT
    s[S.S_LIGHT_LEFT + B.SPACE_REGION[q]] -= 1
    s[S.O_OWNER + t] = seat


@kernel
def take_from_space(s, r, tr, seat):
    """The tile under the lamp goes face up in front of the diver; bonus tiles; the turn
    ends ("Your turn is now over. Return the lamp to the boat")."""
    t = s[S.S_TILE]
    lift_lamp_tile(s, r, t, seat)
    if front_kind(r, t) < R.N_TYPES:
        s[S.S_HELD_TREASURES] |= np.int64(1) << t
    give_tile(s, r, t, seat, 1)
    record(tr, s, S.A_TAKE, t, front_kind(r, t), tile_value(r, t), s[S.S_COL], s[S.S_POS])
    claim_bonuses(s, r, tr, seat)
    end_turn(s, r, tr)


@kernel
def do_take(s, r, tr):
    """ "Take the tile: ... remove the tile under the lamp, turn it over and lay it face up in
    front of you." A cave is turned over on taking; a monster inside must be fought
    (cave_monster_fights, ruling). An exchange tile taken is kept for its 2 points."""
    if s[S.S_GAME_OVER] == 1 or s[S.S_PHASE] != S.PH_LIT:
        return ERR_ILLEGAL
    t = s[S.S_TILE]
    seat = s[S.S_SEAT]
    if lamp_kind(r, t) == R.CAVE:
        s[S.S_CAVES] += 1
        if front_kind(r, t) == R.MONSTER and r[R.P_CAVE_FIGHT] == 1:
            q = space_at(s[S.S_COL], s[S.S_POS])
            forget_hidden(s, r, q, t)
            s[S.O_KNOWN + q] = S.FRONT
            record(tr, s, S.A_REVEAL, t, R.MONSTER, tile_value(r, t))
            s[S.S_PHASE] = S.PH_FIGHT
            return 0
    take_from_space(s, r, tr, seat)
    return 0


@kernel
def exchange_ok(s, r, target, tile):
    """The exchange tile under the lamp may go to `target` for their tile `tile`: "give it to
    any fellow player and ... take any treasure or wreck tile of your choice from that
    player" ("Sea monsters and bonus tiles may not be exchanged"; seagrass and exchange tiles
    are not treasures)."""
    if s[S.S_GAME_OVER] == 1 or s[S.S_PHASE] != S.PH_LIT or lamp_kind(r, s[S.S_TILE]) != R.EXCHANGE:
        return False
    if target < 0 or target >= r[R.P_PLAYERS] or target == s[S.S_SEAT]:
        return False
    if tile < 0 or tile >= r[R.P_N_TILES] or s[S.O_OWNER + tile] != target:
        return False
    return front_kind(r, tile) < R.N_TYPES


@kernel
def do_exchange(s, r, tr, target, tile):
    """Give the exchange tile under the lamp to `target` (who "receives 2 points at the end of
    the game for it") and take their tile `tile`."""
    if not exchange_ok(s, r, target, tile):
        return ERR_ILLEGAL
    seat = s[S.S_SEAT]
    ex = s[S.S_TILE]
    lift_lamp_tile(s, r, ex, target)
    give_tile(s, r, ex, target, 1)
    s[S.O_OWNER + tile] = seat
    give_tile(s, r, tile, target, -1)
    give_tile(s, r, tile, seat, 1)
    s[S.S_EXCHANGES] += 1
    count(s, seat, S.C_EXCHANGES)
    record(tr, s, S.A_EXCHANGE, target, tile, ex)
    claim_bonuses(s, r, tr, seat)
    end_turn(s, r, tr)
    return 0


@kernel
def can_stop(s, r):
    return s[S.S_GAME_OVER] == 0 and s[S.S_PHASE] == S.PH_EMPTY and r[R.P_EMPTY_STOP] == 1


@kernel
def do_stop(s, r, tr):
    """Stop the dive over an empty space with nothing (ruling empty_may_stop)."""
    if not can_stop(s, r):
        return ERR_ILLEGAL
    seat = s[S.S_SEAT]
    s[S.S_EMPTY_STOPS] += 1
    count(s, seat, S.C_EMPTY_STOPS)
    record(tr, s, S.A_STOP, s[S.S_COL], s[S.S_POS])
    end_turn(s, r, tr)
    return 0


@kernel
def fight_won(s, r, d0, d1):
    """ "If one of the rolled numbers is at least as large as the number of pips shown on the
    sea monster tile, you have won the fight" -- only the free dice count."""
    pips = tile_value(r, s[S.S_TILE])
    for i in range(R.N_DICE):
        if (s[S.S_BLOCKED] >> i) & 1:
            continue
        d = d0 if i == 0 else d1
        if d != R.X and d >= pips:
            return True
    return False


@kernel
def apply_fight(s, r, tr, d0, d1):
    """The fight with faces d0, d1 on the free dice: won, the diver takes the tile; lost, "the
    tile stays on the space with its blue side up" (its front now known to all). "In both
    cases your turn is over after the fight"."""
    if s[S.S_GAME_OVER] == 1 or s[S.S_PHASE] != S.PH_FIGHT:
        return ERR_ILLEGAL
    seat = s[S.S_SEAT]
    t = s[S.S_TILE]
    if s[S.S_BLOCKED] & 1:
        d0 = -1
    if s[S.S_BLOCKED] & 2:
        d1 = -1
    won = fight_won(s, r, d0, d1)
    s[S.S_FIGHTS] += 1
    record(tr, s, S.A_FIGHT, d0, d1, tile_value(r, t), 1 if won else 0, t)
    if won:
        s[S.S_FIGHTS_WON] += 1
        count(s, seat, S.C_FIGHTS_WON)
        take_from_space(s, r, tr, seat)
    else:
        count(s, seat, S.C_FIGHTS_LOST)
        q = space_at(s[S.S_COL], s[S.S_POS])
        forget_hidden(s, r, q, t)
        s[S.O_KNOWN + q] = S.FRONT
        end_turn(s, r, tr)
    return 0


@kernel
def do_fight(s, r, tr, rng):
    """ "You roll again. Again, only the dice are available to you that you did not roll as
    an X earlier." """
    if s[S.S_GAME_OVER] == 1 or s[S.S_PHASE] != S.PH_FIGHT:
        return ERR_ILLEGAL
    d0, d1 = roll_free_dice(s, r, rng)
    return apply_fight(s, r, tr, d0, d1)


@kernel
def do_wreck(s, r, tr, tile):
    """ "If you manage to dive all the way down to the wreck, you may choose one of the wreck
    tiles on offer and lay it in front of you." """
    if s[S.S_GAME_OVER] == 1 or s[S.S_PHASE] != S.PH_WRECK:
        return ERR_ILLEGAL
    if tile < R.WRECK_BASE or tile >= r[R.P_N_TILES] or s[S.O_OWNER + tile] != S.ON_BOARD:
        return ERR_ILLEGAL
    seat = s[S.S_SEAT]
    s[S.O_OWNER + tile] = seat
    s[S.S_WRECK_LEFT] -= 1
    if front_kind(r, tile) < R.N_TYPES:
        s[S.S_HELD_TREASURES] |= np.int64(1) << tile
    give_tile(s, r, tile, seat, 1)
    s[S.S_WRECK_TAKEN] += 1
    count(s, seat, S.C_WRECK)
    record(tr, s, S.A_WRECK, tile, front_kind(r, tile), tile_value(r, tile))
    claim_bonuses(s, r, tr, seat)
    end_turn(s, r, tr)
    return 0


@kernel
def end_turn(s, r, tr):
    """The turn is over: the lamp back to the boat; the game ends at once when an end
    condition holds, else "play continues clockwise"."""
    record(tr, s, S.A_END_TURN)
    reset_dive(s)
    s[S.S_TURN] += 1
    e = end_condition(s, r)
    if e >= 0:
        s[S.S_END_REASON] = e
        s[S.S_GAME_OVER] = 1
        return
    if s[S.S_TURN] >= r[R.P_MAX_TURNS]:
        s[S.S_END_REASON] = S.END_TURN_LIMIT
        s[S.S_GAME_OVER] = 1
        return
    seat = s[S.S_SEAT] + 1
    if seat == r[R.P_PLAYERS]:
        seat = 0
        s[S.S_ROUND] += 1
    s[S.S_SEAT] = seat


# ---------------------------------------------------------------------------------------
# Scores (seed 003, "End of the Game")


@kernel
def scores(s, r, score, tiebreak):
    """Fill score[seat]: "Each treasure tile and each wreck tile is worth as many points as
    the treasures, gold coins or sea monsters it shows. Seagrass is unfortunately worth no
    points. Each bonus tile is worth 5 points." Exchange tiles are worth 2. No tie-break in
    the rulebook: tiebreak is 0 and equal scores share the win (ruling)."""
    for seat in range(R.MAX_PLAYERS):
        score[seat] = 0
        tiebreak[seat] = 0
    for t in range(r[R.P_N_TILES]):
        o = s[S.O_OWNER + t]
        if o >= 0:
            score[o] += tile_value(r, t)
    for b in range(R.N_BONUS):
        o = s[S.O_BONUS + b]
        if o >= 0:
            score[o] += r[R.P_BONUS_POINTS]
    for seat in range(r[R.P_PLAYERS]):  # compensation (seat_points)
        score[seat] += r[R.R_SEAT_POINTS + seat]
