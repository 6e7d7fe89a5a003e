"""Sunken City engine, the turn: playing a card, the kinds of action open at each moment
(turn_options), ending the turn and the game (seed 000, "Playing a Movement Card", "A Turn
Ends", "End of Game").

Arguments: s = flat state (int64, layout in state.py), r = packed rules (int64, rules.py),
tr = trace buffer (int32, state.py), x = scratch (int64, state.py), rng = uint64[1].
"""

from __future__ import annotations

from simcore.frame.jit import kernel
from simcore.games.sunken_city import engine as E
from simcore.games.sunken_city import rules as R
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine_advanced import can_grotto_now
from simcore.games.sunken_city.engine_moves import can_chip_now, step_targets
from simcore.games.sunken_city.engine_raising import block_ok, can_build_any, raising_owed
from simcore.games.sunken_city.engine_spirit import can_spirit_now, spirit_targets


@kernel
def do_card(s, r, tr, seat, card):
    """Play a card from the hand. "Played cards remain face up ... until they have no cards
    left in hand. Only then does the player take all the cards back"."""
    if seat != s[S.S_SEAT] or s[S.S_CARD] >= 0 or s[S.S_GAME_OVER] == 1:
        return E.ERR_ILLEGAL
    if card < 0 or card >= r[R.P_N_CARDS] or (s[S.O_HAND + seat] & (1 << card)) == 0:
        return E.ERR_ILLEGAL
    s[S.O_HAND + seat] &= ~(1 << card)
    if s[S.O_HAND + seat] == 0:
        s[S.O_HAND + seat] = (1 << r[R.P_N_CARDS]) - 1
    s[S.S_CARD] = card
    s[S.S_RAISE_LEFT] = E.card_value(r, card, 0)
    s[S.S_MOVE_LEFT] = E.card_value(r, card, 1)
    s[S.S_GROTTO_MOVE_ALLOWED] = 0
    if E.sinking(s, r):
        # seed 001: "Top Number ... in the Sinking Phase, Neptune Movement Points"
        s[S.S_SPIRIT_STEPS_LEFT] = s[S.S_RAISE_LEFT]
        s[S.S_RAISE_LEFT] = 0
    s[S.S_HOUSE_RAISED] = 0
    s[S.S_CHIP_USED] = 0
    s[S.S_SPIRIT_BEGUN] = 0
    s[S.S_SPIRIT_ACTIVE] = 0
    s[S.S_SPIRIT_ROLL] = -1
    s[S.S_ACTION_BLOCK] = S.BLOCK_NONE
    s[S.S_BLOCKS_BEGUN] = 0
    s[S.S_SPIRIT_STEPS_TAKEN] = 0
    E.record(
        tr,
        s,
        S.A_CARD,
        card,
        E.card_value(r, card, 0),
        E.card_value(r, card, 1),
        E.card_value(r, card, 2),
    )
    return 0


@kernel
def can_end_now(s, r):
    """The turn may end once the mandatory raising is done, or cannot be done."""
    if s[S.S_CARD] < 0 or s[S.S_SPIRIT_ACTIVE] == 1:
        return False
    if E.sinking(s, r) and s[S.S_SPIRIT_STEPS_LEFT] > 0:
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
    if s[S.S_CARD] < 0 or s[S.S_SPIRIT_ACTIVE] == 1:
        return 0
    m = 0
    build_any = s[S.S_RAISE_LEFT] > 0 and can_build_any(s, r)
    owed = build_any and E.street_available(s)
    if (
        r[R.P_INTERLEAVE] == 0
        and s[S.S_BLOCKS_BEGUN] & (1 << S.BLOCK_BUILD)
        and (s[S.S_ACTION_BLOCK] != S.BLOCK_BUILD)
    ):
        owed = False
    if build_any and block_ok(s, r, S.BLOCK_BUILD):
        m |= 1 << K_PLACE
    if (
        s[S.S_MOVE_LEFT] > 0
        and block_ok(s, r, S.BLOCK_MOVE)
        and step_targets(s, r, seat, x, S.X_NEIGHBOURS) > 0
    ):
        m |= 1 << K_STEP
    if can_chip_now(s, r, seat):
        m |= 1 << K_CHIP
    if can_spirit_now(s, r, seat, x):
        m |= 1 << K_SPIRIT
    if r[R.P_ADVANCED] == 1:
        if s[S.S_PHASE] == S.PHASE_SINKING and s[S.S_SPIRIT_STEPS_LEFT] > 0:
            owed = True
            if spirit_targets(s, x, S.X_NEIGHBOURS) > 0:
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
        return E.ERR_ILLEGAL
    if s[S.S_RAISE_LEFT] > 0 and not E.street_available(s):
        s[S.S_STARVED_TURNS] += 1
    E.record(tr, s, S.A_END_TURN, s[S.S_RAISE_LEFT], s[S.S_MOVE_LEFT])
    s[S.S_CARD] = -1
    s[S.S_RAISE_LEFT] = 0
    s[S.S_MOVE_LEFT] = 0
    s[S.S_GROTTO_MOVE_ALLOWED] = 0
    seat = s[S.S_SEAT] + 1
    s[S.S_TURN] += 1
    if seat == r[R.P_PLAYERS]:
        seat = 0
        s[S.S_ROUND] += 1
        if s[S.S_END_REASON] >= 0:
            s[S.S_GAME_OVER] = 1
        elif s[S.S_ROUND] >= r[R.P_MAX_ROUNDS]:
            s[S.S_END_REASON] = S.END_ROUND_LIMIT
            s[S.S_GAME_OVER] = 1
    elif s[S.S_END_REASON] >= 0 and r[R.P_FINISH_ROUND] == 0:
        # finish_round=false (a designer's alternative): the game ends with this turn; the
        # round begun counts as played
        s[S.S_ROUND] += 1
        s[S.S_GAME_OVER] = 1
    s[S.S_SEAT] = seat
    return 0
