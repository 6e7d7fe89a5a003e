"""Sunken City engine, the turn: playing a card, the kinds of action open at each moment
(turn_options), ending the turn and the game (seed 000, "Playing a Movement Card", "A Turn
Ends", "End of Game").

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].
"""

from __future__ import annotations

from simcore.jit import kernel
from simcore.sunken_city.engine import ERR_ILLEGAL, card_value, record, sinking, street_available
from simcore.sunken_city.engine_advanced import can_grotto_now
from simcore.sunken_city.engine_moves import can_chip_now, step_targets
from simcore.sunken_city.engine_raising import block_ok, can_build_any, raising_owed
from simcore.sunken_city.engine_spirit import can_spirit_now, spirit_targets
from simcore.sunken_city.rules import P_ADVANCED, P_INTERLEAVE, P_MAX_ROUNDS, P_N_CARDS, P_PLAYERS
from simcore.sunken_city.state import (
    A_CARD,
    A_END_TURN,
    BLOCK_BUILD,
    BLOCK_MOVE,
    BLOCK_NONE,
    END_ROUND_LIMIT,
    O_HAND,
    PHASE_SINKING,
    S_ACTION_BLOCK,
    S_BLOCKS_BEGUN,
    S_CARD,
    S_CHIP_USED,
    S_END_REASON,
    S_GAME_OVER,
    S_GROTTO_MOVE_ALLOWED,
    S_HOUSE_RAISED,
    S_MOVE_LEFT,
    S_PHASE,
    S_RAISE_LEFT,
    S_ROUND,
    S_SEAT,
    S_SPIRIT_ACTIVE,
    S_SPIRIT_BEGUN,
    S_SPIRIT_ROLL,
    S_SPIRIT_STEPS_LEFT,
    S_SPIRIT_STEPS_TAKEN,
    S_STARVED_TURNS,
    S_TURN,
    X_NEIGHBOURS,
)


@kernel
def do_card(s, r, tr, seat, card):
    """Play a card from the hand. "Played cards remain face up ... until they have no cards
    left in hand. Only then does the player take all the cards back"."""
    if seat != s[S_SEAT] or s[S_CARD] >= 0 or s[S_GAME_OVER] == 1:
        return ERR_ILLEGAL
    if card < 0 or card >= r[P_N_CARDS] or (s[O_HAND + seat] & (1 << card)) == 0:
        return ERR_ILLEGAL
    s[O_HAND + seat] &= ~(1 << card)
    if s[O_HAND + seat] == 0:
        s[O_HAND + seat] = (1 << r[P_N_CARDS]) - 1
    s[S_CARD] = card
    s[S_RAISE_LEFT] = card_value(r, card, 0)
    s[S_MOVE_LEFT] = card_value(r, card, 1)
    s[S_GROTTO_MOVE_ALLOWED] = 0
    if sinking(s, r):
        # seed 001: "Top Number ... in the Sinking Phase, Neptune Movement Points"
        s[S_SPIRIT_STEPS_LEFT] = s[S_RAISE_LEFT]
        s[S_RAISE_LEFT] = 0
    s[S_HOUSE_RAISED] = 0
    s[S_CHIP_USED] = 0
    s[S_SPIRIT_BEGUN] = 0
    s[S_SPIRIT_ACTIVE] = 0
    s[S_SPIRIT_ROLL] = -1
    s[S_ACTION_BLOCK] = BLOCK_NONE
    s[S_BLOCKS_BEGUN] = 0
    s[S_SPIRIT_STEPS_TAKEN] = 0
    record(
        tr, s, A_CARD, card, card_value(r, card, 0), card_value(r, card, 1), card_value(r, card, 2)
    )
    return 0


@kernel
def can_end_now(s, r):
    """The turn may end once the mandatory raising is done, or cannot be done."""
    if s[S_CARD] < 0 or s[S_SPIRIT_ACTIVE] == 1:
        return False
    if sinking(s, r) and s[S_SPIRIT_STEPS_LEFT] > 0:
        return False  # seed 001: Neptune "must use all points on played Action Card"
    return not raising_owed(s, r)


# Kinds of action (bits of turn_options); the last three are the advanced game's.
K_PLACE, K_STEP, K_CHIP, K_SPIRIT, K_END, K_SINK, K_BANISH, K_GROTTO = 0, 1, 2, 3, 4, 5, 6, 7
N_KINDS = 8


@kernel
def turn_options(s, r, seat, x):
    """Bitmask (1 << K_*) of the kinds of action legal now, with can_build_any evaluated once:
    the same answers as can_place_now, can_step_now, can_chip_now, can_spirit_now and
    can_end_now."""
    if s[S_CARD] < 0 or s[S_SPIRIT_ACTIVE] == 1:
        return 0
    m = 0
    build_any = s[S_RAISE_LEFT] > 0 and can_build_any(s, r)
    owed = build_any and street_available(s)
    if (
        r[P_INTERLEAVE] == 0
        and s[S_BLOCKS_BEGUN] & (1 << BLOCK_BUILD)
        and (s[S_ACTION_BLOCK] != BLOCK_BUILD)
    ):
        owed = False
    if build_any and block_ok(s, r, BLOCK_BUILD):
        m |= 1 << K_PLACE
    if (
        s[S_MOVE_LEFT] > 0
        and block_ok(s, r, BLOCK_MOVE)
        and step_targets(s, r, seat, x, X_NEIGHBOURS) > 0
    ):
        m |= 1 << K_STEP
    if can_chip_now(s, r, seat):
        m |= 1 << K_CHIP
    if can_spirit_now(s, r, seat, x):
        m |= 1 << K_SPIRIT
    if r[P_ADVANCED] == 1:
        if s[S_PHASE] == PHASE_SINKING and s[S_SPIRIT_STEPS_LEFT] > 0:
            owed = True
            if spirit_targets(s, x, X_NEIGHBOURS) > 0:
                m |= 1 << K_SINK
            else:
                m |= 1 << K_BANISH
        if can_grotto_now(s, r, seat):
            m |= 1 << K_GROTTO
    if not owed:
        m |= 1 << K_END
    return m


@kernel
def do_end_turn(s, r, tr):
    """End the turn; "afterward it is their left-hand neighbor's turn". After the last seat
    of a round in which an end condition occurred, the game is over ("a round already in
    progress is still played to the end")."""
    if not can_end_now(s, r):
        return ERR_ILLEGAL
    if s[S_RAISE_LEFT] > 0 and not street_available(s):
        s[S_STARVED_TURNS] += 1
    record(tr, s, A_END_TURN, s[S_RAISE_LEFT], s[S_MOVE_LEFT])
    s[S_CARD] = -1
    s[S_RAISE_LEFT] = 0
    s[S_MOVE_LEFT] = 0
    s[S_GROTTO_MOVE_ALLOWED] = 0
    seat = s[S_SEAT] + 1
    s[S_TURN] += 1
    if seat == r[P_PLAYERS]:
        seat = 0
        s[S_ROUND] += 1
        if s[S_END_REASON] >= 0:
            s[S_GAME_OVER] = 1
        elif s[S_ROUND] >= r[P_MAX_ROUNDS]:
            s[S_END_REASON] = END_ROUND_LIMIT
            s[S_GAME_OVER] = 1
    s[S_SEAT] = seat
    return 0
