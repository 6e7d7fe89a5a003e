"""Sunken Treasure rules as data: every number a designer may vary, named variants, packing.

Sources: seed 004 (the rulebook text) and ../shared/GAME-DATA.md for what the text leaves out
(the deck mixes, the treasure values). Every reconstructed number is a field here, changeable
with ``--set key=value`` or a variant file; every ruling on an unclear sentence is a named
boolean field. docs/rules-sunken-treasure.md lists which is which.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.base.rulesbase import (
    RulesBase,
    RulesError,
    in_range,
    one_of,
    variant_registry,
)
from simcore.games.sunken_treasure import board as B

# When an empty deck takes its shuffled discards (rules field `reshuffle`).
RESHUFFLE = ("when-depleted", "when-needed")
RESHUFFLE_WHEN_DEPLETED = 0
RESHUFFLE_WHEN_NEEDED = 1


BOXES_WORDS = "starts with {n} Unlocked Box card{s} from the Item deck"


@dataclass(frozen=True)
class SunkenTreasureRules(RulesBase, game="sunken-treasure", players=(1, B.MAX_PLAYERS)):
    """Every rule parameter of Sunken Treasure (seed 004)."""

    item_deck: tuple[int, ...] = in_range(B.DEFAULT_ITEM_DECK, 0, B.MAX_ITEMS)
    """item cards by kind: unlocked box, unlocked chest, locked box, locked chest, locked safe,
    junk, shark, safety (reconstruction: 6,4,5,4,2,8,7,5 = 41 cards)"""
    attempt_deck: tuple[int, ...] = in_range(B.DEFAULT_ATTEMPT_DECK, 0, B.MAX_ATTEMPTS)
    """attempt cards by kind: open, cracked, no effect, fail, trapped (reconstruction:
    8,4,4,3,2 = 21 cards)"""
    treasure_values: tuple[int, ...] = in_range(B.DEFAULT_TREASURE_VALUES, 0, 1_000_000)
    """dollar value of each kind of treasure card (reconstruction)"""
    treasure_counts: tuple[int, ...] = in_range(B.DEFAULT_TREASURE_COUNTS, 0, B.MAX_TREASURES)
    """treasure cards of each value, in the order of treasure_values (reconstruction)"""
    bags: tuple[int, int, int] = in_range((1, 2, 3), 0, 10)
    """treasure cards paid by a box, a chest and a safe (seed 004: 1, 2, 3)"""
    sharks_to_attack: int = in_range(3, 1, 20)
    """sharks on the board that force every diver up (seed 004: the third)"""
    target: int = in_range(20000, 1, 1_000_000_000)
    """banked dollars that win the game (seed 004: $20,000)"""
    solo_turns: int = in_range(40, 1, 10_000)
    """one player: the target must be banked within this many turns (GAME-DATA ruling)"""
    second_cracked_full: bool = True
    """a second Cracked opens the lock and pays the container's bags (True) or one card
    (False: the literal 'you can take a Treasure Card')"""
    abandon_needs_trap: bool = True
    """a container (or a theft) under attempt may be given up only once a Trapped card lies on
    it (True: the text offers it only after Trapped); False: at any time"""
    keep_safety_on_surface: bool = False
    """Safety cards are kept when surfacing (False: the literal 'discard all Item Cards')"""
    bank_on_surface: bool = False
    """treasure is banked the moment its diver surfaces (True: 'brought to the surface is
    considered banked'); False: banking is a turn of its own ('Banking Treasure completes a
    turn')"""
    steal_trap_discards: bool = True
    """a second Trapped on a theft makes the thief discard all but banked treasure ('the same
    rules as a Shark Attack'); False: the theft just ends"""
    reshuffle: str = one_of("when-depleted", RESHUFFLE)
    """when a deck's discards become its new pile: "when-depleted" (seed 004: "When the
    Attempt Cards pile is depleted, the discards are shuffled and made into a new pile") at
    the draw that takes its last card, so cards discarded later wait for the next reshuffle;
    "when-needed": only when the next card is drawn, taking every card discarded until then.
    For all three decks (Item, Attempt, Treasure)"""
    max_rounds: int = in_range(500, 1, 10_000)
    """safety cap: the game ends with no winner after this many rounds (end reason
    'round-limit'; the rulebook has no such end)"""
    # the designer's additions (seat compensation, issue #38; docs/rules-sunken-treasure.md)
    seat_thousands: tuple[int, ...] = in_range((), 0, 1_000)
    """compensation: thousands of dollars each seat starts with banked, seat 0 first (they
    count towards the target and the score; no card: they cannot be stolen or lost), e.g.
    0,0,2 ($2,000 for seat 2)"""
    seat_boxes: tuple[int, ...] = in_range((), 0, B.MAX_ITEMS)
    """compensation: Unlocked Box cards each seat starts with in hand, taken from the Item deck
    before it is shuffled, seat 0 first (held like any box: claimed for one Treasure card on a
    turn after the seat's first play, a search; discarded on surfacing), e.g. 0,0,1"""

    ADDITIONS = SEAT_FIELDS = ("seat_thousands", "seat_boxes")
    SEAT_SEARCH = {"seat_thousands": 6, "seat_boxes": 2}
    SEAT_WORDS = dict(seat_thousands="starts with ${n},000 banked", seat_boxes=BOXES_WORDS)

    # ----------------------------------------------------------------------------------
    def check(self, players: int | None) -> None:
        """Raise RulesError with one clear sentence when a field is out of range."""
        if len(self.item_deck) != B.N_ITEM_KINDS or any(c < 0 for c in self.item_deck):
            raise RulesError(
                "item_deck needs 8 counts of 0 or more (unlocked box, unlocked chest, locked "
                "box, locked chest, locked safe, junk, shark, safety)"
            )
        if sum(self.item_deck) < 1 or sum(self.item_deck) > B.MAX_ITEMS:
            raise RulesError(f"item_deck must hold 1 to {B.MAX_ITEMS} cards")
        if self.item_deck[B.JUNK] < 1:
            raise RulesError("item_deck needs at least one junk card (the deck must cycle)")
        if len(self.attempt_deck) != B.N_ATTEMPT_KINDS or any(c < 0 for c in self.attempt_deck):
            raise RulesError(
                "attempt_deck needs 5 counts of 0 or more (open, cracked, no effect, fail, trapped)"
            )
        if self.attempt_deck[B.OPEN] + self.attempt_deck[B.FAIL] < 1:
            raise RulesError("attempt_deck needs at least one open or fail card")
        if sum(self.attempt_deck) > B.MAX_ATTEMPTS:
            raise RulesError(f"attempt_deck must hold at most {B.MAX_ATTEMPTS} cards")
        # the cards that can lie on open attempts (each seat: at most 1 cracked, 1 trapped and
        # any no-effects) must leave cards to draw
        lying = min(self.attempt_deck[B.CRACKED], B.MAX_PLAYERS)
        lying += min(self.attempt_deck[B.TRAPPED], B.MAX_PLAYERS) + self.attempt_deck[B.NO_EFFECT]
        if sum(self.attempt_deck) - lying < 1:
            raise RulesError("attempt_deck must keep a card to draw while attempts are open")
        if not 1 <= len(self.treasure_values) <= B.MAX_TREASURE_KINDS:
            raise RulesError(f"treasure_values needs 1 to {B.MAX_TREASURE_KINDS} values")
        if len(self.treasure_counts) != len(self.treasure_values):
            raise RulesError("treasure_counts needs one count per treasure value")
        if any(v < 0 for v in self.treasure_values) or any(c < 0 for c in self.treasure_counts):
            raise RulesError("treasure values and counts must be 0 or more")
        if not 1 <= sum(self.treasure_counts) <= B.MAX_TREASURES:
            raise RulesError(f"the treasure deck must hold 1 to {B.MAX_TREASURES} cards")
        if len(self.bags) != 3 or any(not 0 <= b <= 10 for b in self.bags):
            raise RulesError("bags needs three counts 0-10 (box, chest, safe)")
        if self.target < 1:
            raise RulesError("target must be at least 1 dollar")
        if sum(self.seat_boxes) > self.item_deck[B.UNLOCKED_BOX]:
            raise RulesError(
                f"seat_boxes hands out {sum(self.seat_boxes)} Unlocked Boxes but the Item deck "
                f"holds {self.item_deck[B.UNLOCKED_BOX]}"
            )


# ---------------------------------------------------------------------------------------
# Named variants, by the fields they set; they compose ("bank-on-surface+four-sharks").
VARIANTS = variant_registry("the rulebook's game with the GAME-DATA decks (no change)")
VARIANTS.add(
    "bank-on-surface", "treasure brought to the surface is banked at once", bank_on_surface=True
)
VARIANTS.add("keep-safety", "Safety cards survive surfacing", keep_safety_on_surface=True)
VARIANTS.add(
    "free-abandon",
    "a lock or theft under attempt may be given up at any time",
    abandon_needs_trap=False,
)
VARIANTS.add(
    "four-sharks", "the fourth shark, not the third, forces the divers up", sharks_to_attack=4
)
VARIANTS.add(
    "reshuffle-when-needed",
    "an empty deck takes its shuffled discards only when the next card is drawn",
    reshuffle="when-needed",
)
VARIANTS.add(
    "literal-cracked", "a second Cracked pays one Treasure card", second_cracked_full=False
)


# ---------------------------------------------------------------------------------------
# Component readings of the decks (issue #25; docs/component-readings.md): other plausible mixes
# with seed 004's card counts (41 Item, 21 Attempt, 20 Treasure cards).
DECKS = "decks"
VARIANTS.add_reading(
    "decks-more-locks",
    "items: unlocked box 4, unlocked chest 3, locked box 6, locked chest 5, locked safe 3",
    DECKS,
    "the same 41 Item cards, 21 of them containers, and the same junk, sharks and safety; more "
    "of the containers are locked (14 of 21 instead of 11), so more treasure needs Attempt cards",
    item_deck=(4, 3, 6, 5, 3, 8, 7, 5),
)
VARIANTS.add_reading(
    "decks-harsh-attempts",
    "attempts: open 6, cracked 4, no effect 4, fail 4, trapped 3",
    DECKS,
    "the same 21 Attempt cards with fewer that open a lock at once (6 instead of 8) and more "
    "fails and traps: the attempt deck's split is not given",
    attempt_deck=(6, 4, 4, 4, 3),
)
VARIANTS.add_reading(
    "decks-flat-treasure",
    "treasure: $1,000 x3, $2,000 x7, $3,000 x6, $5,000 x4 (no $10,000 card)",
    DECKS,
    "the same 20 Treasure cards and the same $55,000 in all, without the single $10,000 "
    "jackpot: values are flatter, so one lucky card matters less against the $20,000 target",
    treasure_values=(1000, 2000, 3000, 5000),
    treasure_counts=(3, 7, 6, 4),
)


# ---------------------------------------------------------------------------------------
# Packing for the kernels: one flat int64 array r, named offsets.
P_PLAYERS = 0
P_SHARKS = 1  # sharks_to_attack
P_TARGET = 2
P_SOLO_TURNS = 3
P_MAX_ROUNDS = 4
P_N_TKINDS = 5  # kinds of treasure card
P_N_ITEMS = 6  # item cards in all
P_N_ATTEMPTS = 7
P_N_TREASURES = 8
P_SECOND_CRACKED_FULL = 9
P_ABANDON_NEEDS_TRAP = 10
P_KEEP_SAFETY = 11
P_BANK_ON_SURFACE = 12
P_STEAL_TRAP_DISCARDS = 13
P_RESHUFFLE = 14  # RESHUFFLE_WHEN_DEPLETED or RESHUFFLE_WHEN_NEEDED
N_PARAMS = 16
R_BAGS = N_PARAMS  # [5] treasure cards paid by each container kind
R_ITEM_COUNTS = R_BAGS + B.N_CONTAINERS  # [8] item cards of each kind
R_ATTEMPT_COUNTS = R_ITEM_COUNTS + B.N_ITEM_KINDS  # [5] attempt cards of each kind
R_TVALUE = R_ATTEMPT_COUNTS + B.N_ATTEMPT_KINDS  # [10] dollar value of each treasure kind
R_TCOUNT = R_TVALUE + B.MAX_TREASURE_KINDS  # [10] cards of each treasure kind
R_SEAT_DOLLARS = R_TCOUNT + B.MAX_TREASURE_KINDS  # [MAX_PLAYERS] dollars banked at the start
R_SEAT_BOXES = R_SEAT_DOLLARS + B.MAX_PLAYERS  # [MAX_PLAYERS] Unlocked Boxes held at the start
RULES_SIZE = R_SEAT_BOXES + B.MAX_PLAYERS


def pack(rules: SunkenTreasureRules, players: int) -> np.ndarray:
    """Validate the rules for a player count and pack them into the flat kernel array."""
    r = rules.packed(players, RULES_SIZE)
    r[R_SEAT_DOLLARS : R_SEAT_DOLLARS + players] = [
        1000 * v for v in rules.seat_values("seat_thousands", players)
    ]
    r[R_SEAT_BOXES : R_SEAT_BOXES + players] = rules.seat_values("seat_boxes", players)
    r[P_SHARKS] = rules.sharks_to_attack
    r[P_TARGET] = rules.target
    r[P_SOLO_TURNS] = rules.solo_turns
    r[P_MAX_ROUNDS] = rules.max_rounds
    r[P_N_TKINDS] = len(rules.treasure_values)
    r[P_N_ITEMS] = sum(rules.item_deck)
    r[P_N_ATTEMPTS] = sum(rules.attempt_deck)
    r[P_N_TREASURES] = sum(rules.treasure_counts)
    r[P_SECOND_CRACKED_FULL] = int(rules.second_cracked_full)
    r[P_ABANDON_NEEDS_TRAP] = int(rules.abandon_needs_trap)
    r[P_KEEP_SAFETY] = int(rules.keep_safety_on_surface)
    r[P_BANK_ON_SURFACE] = int(rules.bank_on_surface)
    r[P_STEAL_TRAP_DISCARDS] = int(rules.steal_trap_discards)
    r[P_RESHUFFLE] = RESHUFFLE.index(rules.reshuffle)
    for c in range(B.N_CONTAINERS):
        r[R_BAGS + c] = rules.bags[B.CONTAINER_SIZE[c]]
    r[R_ITEM_COUNTS : R_ITEM_COUNTS + B.N_ITEM_KINDS] = rules.item_deck
    r[R_ATTEMPT_COUNTS : R_ATTEMPT_COUNTS + B.N_ATTEMPT_KINDS] = rules.attempt_deck
    n = len(rules.treasure_values)
    r[R_TVALUE : R_TVALUE + n] = rules.treasure_values
    r[R_TCOUNT : R_TCOUNT + n] = rules.treasure_counts
    return r
