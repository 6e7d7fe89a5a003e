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

from simcore.jit import kernel
from simcore.rng import next_u64, rand_below
from simcore.secrets_of_the_sea.board import (
    COLS,
    N_SPACES,
    PER_REGION,
    REGION_SPACES,
    ROWS,
    SPACE_REGION,
    WRECK_ROW,
)
from simcore.secrets_of_the_sea.rules import (
    BONUS_MONSTER,
    BONUS_SEAGRASS,
    CAVE,
    EXCHANGE,
    MAX_PLAYERS,
    MONSTER,
    N_BONUS,
    N_DICE,
    N_TYPES,
    P_BONUS_POINTS,
    P_CAVE_FIGHT,
    P_EMPTY_STOP,
    P_MAX_TURNS,
    P_N_TILES,
    P_OVERSHOOT,
    P_PLAYERS,
    P_WRECK_BONUS,
    R_BONUS_THR,
    R_DIE,
    R_DIE_T,
    R_FRONT,
    R_LAMP,
    R_VALUE,
    SEAGRASS,
    WRECK,
    WRECK_BASE,
    X,
)
from simcore.secrets_of_the_sea.state import (
    A_BONUS,
    A_END_TURN,
    A_EXCHANGE,
    A_FIGHT,
    A_MOVE,
    A_REVEAL,
    A_ROLL,
    A_STOP,
    A_TAKE,
    A_WRECK,
    ACTION_WIDTH,
    C_BUSTS,
    C_DIVES,
    C_EMPTY_STOPS,
    C_EXCHANGES,
    C_FIGHTS_LOST,
    C_FIGHTS_WON,
    C_WRECK,
    EMPTY,
    END_BONUS,
    END_DARK,
    END_LIGHT,
    END_TURN_LIMIT,
    END_WRECK,
    FRONT,
    HC_CAVE,
    HC_CAVE_MONSTER,
    LIT,
    N_CNT,
    N_HC,
    O_BONUS,
    O_CNT,
    O_HELD,
    O_HID_N,
    O_HID_SUM,
    O_KNOWN,
    O_OWNER,
    O_SPACE,
    O_UNLIT,
    ON_BOARD,
    PH_CHOOSE,
    PH_EMPTY,
    PH_FIGHT,
    PH_LIT,
    PH_ROLL,
    PH_WRECK,
    S_BLOCKED,
    S_BONUS_LEFT,
    S_BUSTS,
    S_CAVES,
    S_COL,
    S_DARK_LEFT,
    S_DIE0,
    S_DIVES,
    S_EMPTY_STOPS,
    S_END_REASON,
    S_EXCHANGES,
    S_FIGHTS,
    S_FIGHTS_WON,
    S_GAME_OVER,
    S_HELD_TREASURES,
    S_LIGHT_LEFT,
    S_MOVES,
    S_PHASE,
    S_POS,
    S_ROUND,
    S_SEAT,
    S_TILE,
    S_TURN,
    S_WRECK_LEFT,
    S_WRECK_TAKEN,
    STATE_SIZE,
    UNLIT,
)
from simcore.tracebuf import put_record, write_snapshot

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
    return r[R_LAMP + t]


@kernel
def front_kind(r, t):
    return r[R_FRONT + t]


@kernel
def tile_value(r, t):
    return r[R_VALUE + t]


@kernel
def space_at(col, pos):
    """The space under the lamp in column col at row pos (1..10)."""
    return col * ROWS + pos - 1


@kernel
def count(s, seat, c):
    s[O_CNT + seat * N_CNT + c] += 1


@kernel
def hidden_category(r, t):
    """The hidden-tile category (O_HID_*) of board tile t."""
    f = r[R_FRONT + t]
    if r[R_LAMP + t] == CAVE:
        return HC_CAVE_MONSTER if f == MONSTER else HC_CAVE
    return f


@kernel
def bonus_category(r, t):
    """The bonus tile that tile t counts for (-1 none): its treasure type, monsters, seagrass.
    Wreck tiles count for their type when wreck_counts_for_bonus (ruling)."""
    f = r[R_FRONT + t]
    if r[R_LAMP + t] == WRECK and r[P_WRECK_BONUS] == 0:
        return -1
    if f < N_TYPES:
        return f
    if f == MONSTER:
        return BONUS_MONSTER
    if f == SEAGRASS:
        return BONUS_SEAGRASS
    return -1


@kernel
def dice_available(s):
    """Number of dice not set aside in this dive."""
    b = s[S_BLOCKED]
    return N_DICE - (b & 1) - ((b >> 1) & 1)


@kernel
def die_roll(s, i):
    return s[S_DIE0 + i]


# ---------------------------------------------------------------------------------------
# Trace records


@kernel
def record(tr, s, kind, a=0, b=0, c=0, d=0, e=0, f=0):
    """Append one action record (turn, seat, kind, a..f) when tracing is on."""
    put_record(tr, ACTION_WIDTH, s[S_TURN], s[S_SEAT], kind, a, b, c, d, e, f, 0, 0, 0)


@kernel
def snapshot(tr, s):
    """Append the whole state (before a turn) to the trace when tracing is on."""
    write_snapshot(tr, s, ACTION_WIDTH, STATE_SIZE)


# ---------------------------------------------------------------------------------------
# Setup (seed 003, "Setup")


@kernel(inline="always")
def reset_dive(s):
    """The lamp back on the boat, both dice free: "Return the lamp to the boat"."""
    s[S_PHASE] = PH_ROLL
    s[S_COL] = -1
    s[S_POS] = 0
    s[S_DIE0] = -1
    s[S_DIE0 + 1] = -1
    s[S_BLOCKED] = 0
    s[S_TILE] = -1


@kernel
def setup_fixed(s, r):
    """Everything of the start but the shuffle: tiles in order on their region's spaces,
    wreck tiles at the wreck, bonus tiles free, seat 0 to play."""
    s[:] = 0
    for g in range(2):
        for k in range(PER_REGION):
            s[O_SPACE + REGION_SPACES[g, k]] = g * PER_REGION + k
    for t in range(r[P_N_TILES]):
        s[O_OWNER + t] = ON_BOARD
    for b in range(N_BONUS):
        s[O_BONUS + b] = -1
    s[S_END_REASON] = -1
    reset_dive(s)


@kernel
def setup(s, r, tr, rng):
    """The starting position: "Shuffle all treasure tiles with the light blue back ... place
    them on the designated spaces in the upper part", the dark ones in the lower part (a
    Fisher-Yates shuffle of each region), the wreck tiles face up at the wreck, the bonus
    tiles beside the board. "The youngest player starts": seat 0."""
    setup_fixed(s, r)
    for g in range(2):
        for k in range(PER_REGION - 1, 0, -1):
            j = rand_below(rng, k + 1)
            a = O_SPACE + REGION_SPACES[g, k]
            b = O_SPACE + REGION_SPACES[g, j]
            t = s[a]
            s[a] = s[b]
            s[b] = t
    recount(s, r)


@kernel
def recount(s, r):
    """Recompute the held counts, the hidden-tile tables and the tiles-left counts from where
    the tiles are."""
    s[S_LIGHT_LEFT] = 0
    s[S_DARK_LEFT] = 0
    s[S_WRECK_LEFT] = 0
    s[S_BONUS_LEFT] = 0
    s[S_HELD_TREASURES] = 0
    for b in range(N_BONUS):
        if s[O_BONUS + b] < 0:
            s[S_BONUS_LEFT] += 1
    for k in range(MAX_PLAYERS * N_BONUS):
        s[O_HELD + k] = 0
    for k in range(2 * N_HC):
        s[O_HID_N + k] = 0
        s[O_HID_SUM + k] = 0
        s[O_UNLIT + k] = 0
    for t in range(r[P_N_TILES]):
        o = s[O_OWNER + t]
        if o >= 0:
            b = bonus_category(r, t)
            if b >= 0:
                s[O_HELD + o * N_BONUS + b] += 1
            if front_kind(r, t) < N_TYPES:
                s[S_HELD_TREASURES] |= np.int64(1) << t
        elif o == ON_BOARD and t >= WRECK_BASE:
            s[S_WRECK_LEFT] += 1
    for q in range(N_SPACES):
        t = s[O_SPACE + q]
        if t != EMPTY:
            s[S_LIGHT_LEFT + SPACE_REGION[q]] += 1
        if t == EMPTY or s[O_KNOWN + q] == FRONT:
            continue
        k = SPACE_REGION[q] * N_HC + hidden_category(r, t)
        s[O_HID_N + k] += 1
        s[O_HID_SUM + k] += tile_value(r, t)
        if s[O_KNOWN + q] == UNLIT:
            s[O_UNLIT + k] += 1


# ---------------------------------------------------------------------------------------
# The dice (seed 003, "Playing the Game", "Dive deeper")


@kernel(inline="always")
def usable_die(s, r, i):
    """Die i may be chosen: it is free, shows a number, and the full number can be moved
    ("the full number shown must be moved"; with overshoot_to_wreck=False the wreck must be
    reached exactly)."""
    if (s[S_BLOCKED] >> i) & 1:
        return False
    d = s[S_DIE0 + i]
    if d <= X:
        return False
    if r[P_OVERSHOOT] == 0 and s[S_POS] + d > WRECK_ROW:
        return False
    return True


@kernel(inline="always")
def apply_roll(s, r, tr, d0, d1):
    """Use the faces d0, d1 for a roll of the free dice (a die set aside keeps -1). "If you
    roll an X, set that die aside. You cannot dive with this die." "If both dice show an X,
    your turn is unfortunately over" -- and with one free die, its X ends the turn too. Legal
    at the start of the turn and as "dive deeper" over a lit tile or an empty space."""
    ph = s[S_PHASE]
    if s[S_GAME_OVER] == 1 or not (ph == PH_ROLL or ph == PH_LIT or ph == PH_EMPTY):
        return ERR_ILLEGAL
    first = ph == PH_ROLL
    for i in range(N_DICE):
        if (s[S_BLOCKED] >> i) & 1:
            s[S_DIE0 + i] = -1
        else:
            d = d0 if i == 0 else d1
            s[S_DIE0 + i] = d
            if d == X:
                s[S_BLOCKED] |= 1 << i
    any_usable = False
    for i in range(N_DICE):
        if usable_die(s, r, i):
            any_usable = True
    seat = s[S_SEAT]
    record(tr, s, A_ROLL, s[S_DIE0], s[S_DIE0 + 1], s[S_BLOCKED], 0 if any_usable else 1)
    if first and any_usable:
        s[S_DIVES] += 1
        count(s, seat, C_DIVES)
    if not any_usable:
        s[S_BUSTS] += 1
        count(s, seat, C_BUSTS)
        end_turn(s, r, tr)
        return 0
    s[S_PHASE] = PH_CHOOSE
    s[S_TILE] = -1
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
    return r[R_DIE + draw_index(r, R_DIE_T, rng)]


@kernel(inline="always")
def do_roll(s, r, tr, rng):
    """Roll the free dice: the turn's first roll, or "Dive deeper: ... roll both dice again"
    (only the free ones; a die set aside is not rolled)."""
    ph = s[S_PHASE]
    if s[S_GAME_OVER] == 1 or not (ph == PH_ROLL or ph == PH_LIT or ph == PH_EMPTY):
        return ERR_ILLEGAL
    d0 = -1
    d1 = -1
    if (s[S_BLOCKED] & 1) == 0:
        d0 = roll_face(r, rng)
    if (s[S_BLOCKED] & 2) == 0:
        d1 = roll_face(r, rng)
    return apply_roll(s, r, tr, d0, d1)


@kernel(inline="always")
def move_target(s, r, i):
    """The row the lamp reaches with die i (WRECK_ROW for the wreck)."""
    p = s[S_POS] + s[S_DIE0 + i]
    return WRECK_ROW if p > WRECK_ROW else p


@kernel(inline="always")
def do_move(s, r, tr, die, col):
    """Choose die `die` and (on the first move of the dive) the buoy `col`; move the lamp
    straight down the full number, empty spaces counting ("empty spaces ... also count").
    "in this dive you may only dive at this one buoy". Then light what is there."""
    if s[S_GAME_OVER] == 1 or s[S_PHASE] != PH_CHOOSE or die < 0 or die >= N_DICE:
        return ERR_ILLEGAL
    if not usable_die(s, r, die):
        return ERR_ILLEGAL
    if s[S_COL] >= 0:
        if col != s[S_COL]:
            return ERR_ILLEGAL
    elif col < 0 or col >= COLS:
        return ERR_ILLEGAL
    frm = s[S_POS]
    s[S_COL] = col
    s[S_POS] = move_target(s, r, die)
    s[S_MOVES] += 1
    arrive(s, r, tr, die, frm)
    return 0


@kernel(inline="always")
def arrive(s, r, tr, die, frm):
    """What the lamp finds: the wreck, an empty space, a monster (to be fought at once: "When
    a sea monster appears in the light of the lamp, you must turn the tile ... over"), or a
    tile whose kind -- never its value -- all players now see."""
    pos = s[S_POS]
    col = s[S_COL]
    if pos == WRECK_ROW:
        s[S_PHASE] = PH_WRECK
        record(tr, s, A_MOVE, die, col, frm, pos, -2, WRECK)
        if s[S_WRECK_LEFT] == 0:
            end_turn(s, r, tr)  # (test positions only: the game ends with the last one)
        return
    q = space_at(col, pos)
    t = s[O_SPACE + q]
    if t == EMPTY:
        s[S_PHASE] = PH_EMPTY
        s[S_TILE] = -1
        record(tr, s, A_MOVE, die, col, frm, pos, -1, -1)
        return
    if s[O_KNOWN + q] == UNLIT:
        s[O_KNOWN + q] = LIT
        s[O_UNLIT + SPACE_REGION[q] * N_HC + hidden_category(r, t)] -= 1
    s[S_TILE] = t
    lamp = lamp_kind(r, t)
    record(tr, s, A_MOVE, die, col, frm, pos, t, lamp)
    s[S_PHASE] = PH_FIGHT if lamp == MONSTER else PH_LIT


# ---------------------------------------------------------------------------------------
# Taking tiles, bonus tiles, the end of the game


@kernel
def forget_hidden(s, r, q, t):
    """Tile t on space q is no longer hidden (taken, or its front seen): update the tables."""
    if s[O_KNOWN + q] == FRONT:
        return
    k = SPACE_REGION[q] * N_HC + hidden_category(r, t)
    s[O_HID_N + k] -= 1
    s[O_HID_SUM + k] -= tile_value(r, t)
    if s[O_KNOWN + q] == UNLIT:
        s[O_UNLIT + k] -= 1


@kernel
def give_tile(s, r, t, seat, delta):
    """Tile t goes to (delta=1) or leaves (delta=-1) seat's tiles: the held counts follow."""
    b = bonus_category(r, t)
    if b >= 0:
        s[O_HELD + seat * N_BONUS + b] += delta


@kernel
def claim_bonuses(s, r, tr, seat):
    """ "As soon as a player has the number shown on a bonus tile ... in front of them, they
    may take the corresponding round bonus tile" (always taken: ruling); "These bonus tiles
    cannot be taken away". "Only the player who first finds seagrass three times receives the
    seagrass bonus"."""
    for b in range(N_BONUS):
        if s[O_BONUS + b] < 0 and s[O_HELD + seat * N_BONUS + b] >= r[R_BONUS_THR + b]:
            s[O_BONUS + b] = seat
            s[S_BONUS_LEFT] -= 1
            record(tr, s, A_BONUS, b, seat)


@kernel(inline="always")
def end_condition(s, r):
    """The first end condition that holds, -1 none: "The game ends immediately when the last
    tile of one tile type (bonus tiles, light blue treasure tiles, dark blue treasure tiles,
    wreck tiles) has been taken". From the counts of tiles left (check_invariants compares
    them with a recount)."""
    if s[S_BONUS_LEFT] == 0:
        return END_BONUS
    if s[S_LIGHT_LEFT] == 0:
        return END_LIGHT
    if s[S_DARK_LEFT] == 0:
        return END_DARK
    if s[S_WRECK_LEFT] == 0:
        return END_WRECK
    return -1


@kernel
def take_from_space(s, r, tr, seat):
    """The tile under the lamp goes face up in front of the diver; bonus tiles; the turn
    ends ("Your turn is now over. Return the lamp to the boat")."""
    t = s[S_TILE]
    q = space_at(s[S_COL], s[S_POS])
    forget_hidden(s, r, q, t)
    s[O_SPACE + q] = EMPTY
    s[O_KNOWN + q] = UNLIT
    s[S_LIGHT_LEFT + SPACE_REGION[q]] -= 1
    s[O_OWNER + t] = seat
    if front_kind(r, t) < N_TYPES:
        s[S_HELD_TREASURES] |= np.int64(1) << t
    give_tile(s, r, t, seat, 1)
    record(tr, s, A_TAKE, t, front_kind(r, t), tile_value(r, t), s[S_COL], s[S_POS])
    claim_bonuses(s, r, tr, seat)
    end_turn(s, r, tr)


@kernel
def do_take(s, r, tr):
    """ "Take the tile: ... remove the tile under the lamp, turn it over and lay it face up in
    front of you." A cave is turned over on taking; a monster inside must be fought
    (cave_monster_fights, ruling). An exchange tile taken is kept for its 2 points."""
    if s[S_GAME_OVER] == 1 or s[S_PHASE] != PH_LIT:
        return ERR_ILLEGAL
    t = s[S_TILE]
    seat = s[S_SEAT]
    if lamp_kind(r, t) == CAVE:
        s[S_CAVES] += 1
        if front_kind(r, t) == MONSTER and r[P_CAVE_FIGHT] == 1:
            q = space_at(s[S_COL], s[S_POS])
            forget_hidden(s, r, q, t)
            s[O_KNOWN + q] = FRONT
            record(tr, s, A_REVEAL, t, MONSTER, tile_value(r, t))
            s[S_PHASE] = PH_FIGHT
            return 0
    take_from_space(s, r, tr, seat)
    return 0


@kernel
def exchange_ok(s, r, target, tile):
    """The exchange tile under the lamp may go to `target` for their tile `tile`: "give it to
    any fellow player and ... take any treasure or wreck tile of your choice from that
    player" ("Sea monsters and bonus tiles may not be exchanged"; seagrass and exchange tiles
    are not treasures)."""
    if s[S_GAME_OVER] == 1 or s[S_PHASE] != PH_LIT or lamp_kind(r, s[S_TILE]) != EXCHANGE:
        return False
    if target < 0 or target >= r[P_PLAYERS] or target == s[S_SEAT]:
        return False
    if tile < 0 or tile >= r[P_N_TILES] or s[O_OWNER + tile] != target:
        return False
    return front_kind(r, tile) < N_TYPES


@kernel
def do_exchange(s, r, tr, target, tile):
    """Give the exchange tile under the lamp to `target` (who "receives 2 points at the end of
    the game for it") and take their tile `tile`."""
    if not exchange_ok(s, r, target, tile):
        return ERR_ILLEGAL
    seat = s[S_SEAT]
    ex = s[S_TILE]
    q = space_at(s[S_COL], s[S_POS])
    forget_hidden(s, r, q, ex)
    s[O_SPACE + q] = EMPTY
    s[O_KNOWN + q] = UNLIT
    s[S_LIGHT_LEFT + SPACE_REGION[q]] -= 1
    s[O_OWNER + ex] = target
    give_tile(s, r, ex, target, 1)
    s[O_OWNER + tile] = seat
    give_tile(s, r, tile, target, -1)
    give_tile(s, r, tile, seat, 1)
    s[S_EXCHANGES] += 1
    count(s, seat, C_EXCHANGES)
    record(tr, s, A_EXCHANGE, target, tile, ex)
    claim_bonuses(s, r, tr, seat)
    end_turn(s, r, tr)
    return 0


@kernel
def can_stop(s, r):
    return s[S_GAME_OVER] == 0 and s[S_PHASE] == PH_EMPTY and r[P_EMPTY_STOP] == 1


@kernel
def do_stop(s, r, tr):
    """Stop the dive over an empty space with nothing (ruling empty_may_stop)."""
    if not can_stop(s, r):
        return ERR_ILLEGAL
    seat = s[S_SEAT]
    s[S_EMPTY_STOPS] += 1
    count(s, seat, C_EMPTY_STOPS)
    record(tr, s, A_STOP, s[S_COL], s[S_POS])
    end_turn(s, r, tr)
    return 0


@kernel
def fight_won(s, r, d0, d1):
    """ "If one of the rolled numbers is at least as large as the number of pips shown on the
    sea monster tile, you have won the fight" -- only the free dice count."""
    pips = tile_value(r, s[S_TILE])
    for i in range(N_DICE):
        if (s[S_BLOCKED] >> i) & 1:
            continue
        d = d0 if i == 0 else d1
        if d != X and d >= pips:
            return True
    return False


@kernel
def apply_fight(s, r, tr, d0, d1):
    """The fight with faces d0, d1 on the free dice: won, the diver takes the tile; lost, "the
    tile stays on the space with its blue side up" (its front now known to all). "In both
    cases your turn is over after the fight"."""
    if s[S_GAME_OVER] == 1 or s[S_PHASE] != PH_FIGHT:
        return ERR_ILLEGAL
    seat = s[S_SEAT]
    t = s[S_TILE]
    if s[S_BLOCKED] & 1:
        d0 = -1
    if s[S_BLOCKED] & 2:
        d1 = -1
    won = fight_won(s, r, d0, d1)
    s[S_FIGHTS] += 1
    record(tr, s, A_FIGHT, d0, d1, tile_value(r, t), 1 if won else 0, t)
    if won:
        s[S_FIGHTS_WON] += 1
        count(s, seat, C_FIGHTS_WON)
        take_from_space(s, r, tr, seat)
    else:
        count(s, seat, C_FIGHTS_LOST)
        q = space_at(s[S_COL], s[S_POS])
        forget_hidden(s, r, q, t)
        s[O_KNOWN + q] = FRONT
        end_turn(s, r, tr)
    return 0


@kernel
def do_fight(s, r, tr, rng):
    """ "You roll again. Again, only the dice are available to you that you did not roll as
    an X earlier." """
    if s[S_GAME_OVER] == 1 or s[S_PHASE] != PH_FIGHT:
        return ERR_ILLEGAL
    d0 = -1
    d1 = -1
    if (s[S_BLOCKED] & 1) == 0:
        d0 = roll_face(r, rng)
    if (s[S_BLOCKED] & 2) == 0:
        d1 = roll_face(r, rng)
    return apply_fight(s, r, tr, d0, d1)


@kernel
def do_wreck(s, r, tr, tile):
    """ "If you manage to dive all the way down to the wreck, you may choose one of the wreck
    tiles on offer and lay it in front of you." """
    if s[S_GAME_OVER] == 1 or s[S_PHASE] != PH_WRECK:
        return ERR_ILLEGAL
    if tile < WRECK_BASE or tile >= r[P_N_TILES] or s[O_OWNER + tile] != ON_BOARD:
        return ERR_ILLEGAL
    seat = s[S_SEAT]
    s[O_OWNER + tile] = seat
    s[S_WRECK_LEFT] -= 1
    if front_kind(r, tile) < N_TYPES:
        s[S_HELD_TREASURES] |= np.int64(1) << tile
    give_tile(s, r, tile, seat, 1)
    s[S_WRECK_TAKEN] += 1
    count(s, seat, C_WRECK)
    record(tr, s, A_WRECK, tile, front_kind(r, tile), tile_value(r, tile))
    claim_bonuses(s, r, tr, seat)
    end_turn(s, r, tr)
    return 0


@kernel
def end_turn(s, r, tr):
    """The turn is over: the lamp back to the boat; the game ends at once when an end
    condition holds, else "play continues clockwise"."""
    record(tr, s, A_END_TURN)
    reset_dive(s)
    s[S_TURN] += 1
    e = end_condition(s, r)
    if e >= 0:
        s[S_END_REASON] = e
        s[S_GAME_OVER] = 1
        return
    if s[S_TURN] >= r[P_MAX_TURNS]:
        s[S_END_REASON] = END_TURN_LIMIT
        s[S_GAME_OVER] = 1
        return
    seat = s[S_SEAT] + 1
    if seat == r[P_PLAYERS]:
        seat = 0
        s[S_ROUND] += 1
    s[S_SEAT] = seat


# ---------------------------------------------------------------------------------------
# Scores (seed 003, "End of the Game")


@kernel
def scores(s, r, score, tiebreak):
    """Fill score[seat]: "Each treasure tile and each wreck tile is worth as many points as
    the treasures, gold coins or sea monsters it shows. Seagrass is unfortunately worth no
    points. Each bonus tile is worth 5 points." Exchange tiles are worth 2. No tie-break in
    the rulebook: tiebreak is 0 and equal scores share the win (ruling)."""
    for seat in range(MAX_PLAYERS):
        score[seat] = 0
        tiebreak[seat] = 0
    for t in range(r[P_N_TILES]):
        o = s[O_OWNER + t]
        if o >= 0:
            score[o] += tile_value(r, t)
    for b in range(N_BONUS):
        o = s[O_BONUS + b]
        if o >= 0:
            score[o] += r[P_BONUS_POINTS]
