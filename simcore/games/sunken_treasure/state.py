"""The state layout of Sunken Treasure, the trace buffer, and positions for tests.

The kernels keep a position in ONE flat int64 array, each field at a named offset below, its
encoding commented at the field (the reason, as in Sunken City: numba reference-counts every
array passed to a compiled call, so one flat array is far cheaper than a tuple of arrays).
`view(s)` gives Python code (tests, traces) the same state as a NamedTuple of numpy views.

Decks and discard piles are arrays of card codes with a count: a deck's top card is its last
used entry (deck[n - 1]); a discard pile is unordered until it is shuffled back.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simcore.frame import tracebuf
from simcore.frame.tracebuf import T_CAPA, T_CAPS, T_HEADER, T_NA, T_NS, T_ON  # noqa: F401 (re-exported)
from simcore.games.sunken_treasure.board import (
    MAX_ATTEMPTS,
    MAX_ITEMS,
    MAX_PLAYERS,
    MAX_TREASURE_KINDS,
    MAX_TREASURES,
    N_ATTEMPT_KINDS,
    N_ITEM_KINDS,
)

# ---------------------------------------------------------------------------------------
# Scalars: s[S_*].
S_SEAT = 0  # seat on turn
S_TURN = 1  # turns played so far (0-based index of the current turn)
S_ROUND = 2  # round of the current turn, 0-based
S_GAME_OVER = 3  # 1 when the game is over
S_END_REASON = 4  # end reason (END_*), -1 while the game runs
S_ERROR = 5  # first error (engine ERR_* code), 0 none
S_WINNER = 6  # seat that banked the target, -1 none
S_SHARKS = 7  # Shark cards on the board
S_ITEM_N = 8  # cards in the Item deck (O_ITEM_DECK[0 : n], top = last)
S_ITEM_DN = 9  # cards in the Item discard pile
S_ATT_N = 10  # cards in the Attempt deck
S_ATT_DN = 11  # cards in the Attempt discard pile
S_TRE_N = 12  # cards in the Treasure deck
S_TRE_DN = 13  # cards in the Treasure discard pile
S_ATTACKS = 14  # shark attacks (a shark card reached sharks_to_attack)
S_SHARKS_DRAWN = 15  # Shark cards drawn
S_SHARKS_CLEARED = 16  # times the sharks were discarded because every player was up
S_SAFETY_PLAYED = 17  # Safety cards played
S_RESHUFFLES = 18  # [3] reshuffles of the item, attempt and treasure decks
S_SHORT = 21  # treasure cards owed by containers when deck and discard were both empty
S_STANDINGS = 22  # bumped wherever a seat's standing (play.standing) may change: banking, a
# banked card stolen, the target reached, a recount (play.standing_version)
N_SCAL = 24

# Deck arrays (card codes: item kinds ITEM_*, attempt kinds OPEN..TRAPPED, treasure kinds =
# index into the rules' treasure_values).
O_ITEM_DECK = N_SCAL  # [MAX_ITEMS]
O_ITEM_DISC = O_ITEM_DECK + MAX_ITEMS  # [MAX_ITEMS]
O_ATT_DECK = O_ITEM_DISC + MAX_ITEMS  # [MAX_ATTEMPTS]
O_ATT_DISC = O_ATT_DECK + MAX_ATTEMPTS  # [MAX_ATTEMPTS]
O_TRE_DECK = O_ATT_DISC + MAX_ATTEMPTS  # [MAX_TREASURES]
O_TRE_DISC = O_TRE_DECK + MAX_TREASURES  # [MAX_TREASURES]
O_SEATS = O_TRE_DISC + MAX_TREASURES  # [4 x SEAT_W] one block per seat, F_* fields

# Per-seat fields: s[O_SEATS + seat * SEAT_W + F_*].
F_UP = 0  # 0 Diver Down (in the sea), 1 Diver Up (surfaced, on the boat)
F_PLAYED = 1  # 1 once the seat has had its first turn ("On your first play, search")
F_HAND = 2  # [8] item cards held, by item kind (only containers and Safety are ever held)
F_LOCK = F_HAND + N_ITEM_KINDS  # container under attempt (LOCKED_*), -1 none
F_STEAL = F_LOCK + 1  # seat being robbed (the theft under attempt), -1 none
F_STEAL_USED = F_STEAL + 1  # 1 once a theft was begun during this surfacing
F_STACK = F_STEAL_USED + 1  # [5] attempt cards lying on the lock or theft, by kind
F_CARRIED = F_STACK + N_ATTEMPT_KINDS  # [10] treasure cards face up (not banked), by kind
F_BANKED = F_CARRIED + MAX_TREASURE_KINDS  # [10] treasure cards face down (banked), by kind
# Totals kept up to date with the carried and banked cards (the heuristic and the legality
# queries read them every turn; check_invariants compares them with a recount).
F_CVAL = F_BANKED + MAX_TREASURE_KINDS  # dollars of the carried (face-up) treasure cards
F_BVAL = F_CVAL + 1  # dollars of the banked (face-down) treasure cards
F_NCAR = F_BVAL + 1  # carried treasure cards
F_NBANK = F_NCAR + 1  # banked treasure cards
F_CNT = F_NBANK + 1  # [N_CNT] counters, C_* indices
# Per-seat counters.
C_OPENED = 0  # containers that paid out (unlocked claimed, or lock opened)
C_CARDS_TAKEN = 1  # treasure cards taken from containers
C_LOCKS_FAILED = 2  # locks lost to a Fail card
C_TRAP_SURFACED = 3  # forced up by a second Trapped (lock or theft)
C_ATTACKED = 4  # caught in the water by a shark attack
C_VALUE_LOST = 5  # dollars of unbanked treasure discarded (attacks and traps)
C_THEFTS = 6  # thefts begun
C_THEFTS_WON = 7  # thefts that took a card
C_ROBBED = 8  # banked cards lost to thieves
C_SURFACED = 9  # surfacings by choice
C_BANKS = 10  # turns spent banking
C_SAFETY = 11  # Safety cards played
C_ABANDONED = 12  # locks or thefts given up
# the C_* counters' names by index (the row's seat counters, after cards_banked)
COUNTER_NAMES = (
    "containers_opened",
    "treasure_taken",
    "locks_failed",
    "trap_surfaced",
    "shark_attacked",
    "value_lost",
    "thefts",
    "thefts_won",
    "cards_robbed",
    "surfaced",
    "banks",
    "safety",
    "abandoned",
)
N_CNT = len(COUNTER_NAMES)
SEAT_W = F_CNT + N_CNT
STATE_SIZE = O_SEATS + MAX_PLAYERS * SEAT_W

# End reasons.
END_TARGET = 0  # a player banked the target
END_SOLO_LIMIT = 1  # one player: the turn limit passed without the target
END_ROUND_LIMIT = 2  # safety cap (no winner)
END_ERROR = 3
END_REASONS = ("target", "solo-turn-limit", "round-limit", "error")


class Seat(NamedTuple):
    """Python view of one seat's block (numpy views)."""

    up: np.ndarray  # int64[1]: 0 Diver Down, 1 Diver Up
    played: np.ndarray  # int64[1]
    hand: np.ndarray  # int64[8]: item cards held by kind
    lock: np.ndarray  # int64[1]: container under attempt, -1 none
    steal: np.ndarray  # int64[1]: seat being robbed, -1 none
    steal_used: np.ndarray  # int64[1]
    stack: np.ndarray  # int64[5]: attempt cards on the lock / theft
    carried: np.ndarray  # int64[10]: unbanked treasure cards by kind
    banked: np.ndarray  # int64[10]: banked treasure cards by kind
    counters: np.ndarray  # int64[N_CNT]


class State(NamedTuple):
    """Python view of a flat state (numpy views, no copies; writes go to the flat array)."""

    scal: np.ndarray  # int64[N_SCAL]: scalars, S_* indices
    item_deck: np.ndarray  # int64[MAX_ITEMS]: first scal[S_ITEM_N] used, top = last
    item_discard: np.ndarray  # int64[MAX_ITEMS]: first scal[S_ITEM_DN] used
    attempt_deck: np.ndarray  # int64[MAX_ATTEMPTS]
    attempt_discard: np.ndarray  # int64[MAX_ATTEMPTS]
    treasure_deck: np.ndarray  # int64[MAX_TREASURES]
    treasure_discard: np.ndarray  # int64[MAX_TREASURES]
    seats: list[Seat]  # one per seat (MAX_PLAYERS)


def new_state() -> np.ndarray:
    return np.zeros(STATE_SIZE, dtype=np.int64)


def _seat_view(s: np.ndarray, seat: int) -> Seat:
    b = O_SEATS + seat * SEAT_W
    return Seat(
        up=s[b + F_UP : b + F_UP + 1],
        played=s[b + F_PLAYED : b + F_PLAYED + 1],
        hand=s[b + F_HAND : b + F_HAND + N_ITEM_KINDS],
        lock=s[b + F_LOCK : b + F_LOCK + 1],
        steal=s[b + F_STEAL : b + F_STEAL + 1],
        steal_used=s[b + F_STEAL_USED : b + F_STEAL_USED + 1],
        stack=s[b + F_STACK : b + F_STACK + N_ATTEMPT_KINDS],
        carried=s[b + F_CARRIED : b + F_CARRIED + MAX_TREASURE_KINDS],
        banked=s[b + F_BANKED : b + F_BANKED + MAX_TREASURE_KINDS],
        counters=s[b + F_CNT : b + F_CNT + N_CNT],
    )


def view(s: np.ndarray) -> State:
    """Named numpy views on the flat state s."""
    return State(
        scal=s[:N_SCAL],
        item_deck=s[O_ITEM_DECK : O_ITEM_DECK + MAX_ITEMS],
        item_discard=s[O_ITEM_DISC : O_ITEM_DISC + MAX_ITEMS],
        attempt_deck=s[O_ATT_DECK : O_ATT_DECK + MAX_ATTEMPTS],
        attempt_discard=s[O_ATT_DISC : O_ATT_DISC + MAX_ATTEMPTS],
        treasure_deck=s[O_TRE_DECK : O_TRE_DECK + MAX_TREASURES],
        treasure_discard=s[O_TRE_DISC : O_TRE_DISC + MAX_TREASURES],
        seats=[_seat_view(s, k) for k in range(MAX_PLAYERS)],
    )


# ---------------------------------------------------------------------------------------
# Trace buffer: one int32 array. Header, then action records, then state snapshots.

# Action kinds (a record: turn, seat on turn, kind, then fields a..i).
A_SEARCH = 0  # item kind drawn, sharks on the board after it
A_CLAIM = 1  # unlocked container claimed, treasure cards owed
A_ATTEMPT = 2  # container, attempt card, outcome (O_*), treasure cards owed
A_TREASURE = 3  # treasure kind taken, its value, receiving seat
A_SAFETY = 4  # sharks left on the board
A_SURFACE = 5  # seat, reason (UP_*), dollars of unbanked treasure lost
A_DIVE = 6  # (no fields)
A_BANK = 7  # dollars banked, banked total after
A_THEFT = 8  # target seat, attempt card, outcome (O_*), kind stolen (-1), its value
A_ABANDON = 9  # 0 a lock / 1 a theft, container or target seat
A_THEFT_ENDED = 10  # thief, target: the theft ended because the target surfaced or the
#                      thief dove (cards discarded)
A_SHARK_ATTACK = 11  # bitmask of the divers attacked
A_SHARKS_CLEARED = 12  # sharks discarded (every player was up)
A_RESHUFFLE = 13  # deck id (0 item, 1 attempt, 2 treasure), cards shuffled into it
A_END_TURN = 14  # (no fields)
A_GAME_END = 15  # end reason, winner, win mask, error
A_SHORT = 16  # treasure cards owed that no deck could pay
ACTION_WIDTH = 12

# Attempt outcomes (A_ATTEMPT, A_THEFT).
O_GOES_ON, O_OPENED, O_FAILED, O_TRAPPED_OUT = 0, 1, 2, 3
OUTCOME_NAMES = ("goes on", "opened", "failed", "trapped out")
# Reasons for surfacing (A_SURFACE).
UP_CHOICE, UP_SHARKS, UP_TRAP = 0, 1, 2
UP_NAMES = ("by choice", "shark attack", "second trap")


TRACE = tracebuf.TraceShape(ACTION_WIDTH, STATE_SIZE, actions_per_turn=16)


# ---------------------------------------------------------------------------------------
# Scratch space of one game (option lists of the players).
X_OPTS = 0  # [64] legal option codes
X_SIZE = 64


def new_scratch() -> np.ndarray:
    return np.zeros(X_SIZE, dtype=np.int64)


# ---------------------------------------------------------------------------------------
# Positions for tests: a setup game, then decks stacked and seats arranged in Python.


def stack_deck(s: np.ndarray, deck: str, top_first: list[int]) -> None:
    """Put cards on top of a deck (top_first[0] is drawn first), taking them out of the rest
    of that deck (so the totals stay conserved). deck: 'item', 'attempt' or 'treasure'."""
    off, n_idx = {
        "item": (O_ITEM_DECK, S_ITEM_N),
        "attempt": (O_ATT_DECK, S_ATT_N),
        "treasure": (O_TRE_DECK, S_TRE_N),
    }[deck]
    n = int(s[n_idx])
    cards = [int(c) for c in s[off : off + n]]
    for c in top_first:
        cards.remove(c)  # ValueError when the deck has no such card left
    cards = cards + list(reversed(top_first))
    s[off : off + len(cards)] = cards
