"""Static tables of Sunken Treasure: the card kinds of the three decks and what each does.

Sunken Treasure has no board to speak of: the "board" holds the three decks (Item, Attempt,
Treasure), their discard piles and the row of Shark cards (seed 004, "Preparation"). What
varies (how many cards of each kind, what a treasure card is worth) is rules data
(rules.py); what a kind of card *is* lives here, built once at import.
"""

from __future__ import annotations

import numpy as np

MAX_PLAYERS = 4

# Item cards (seed 004, "Searching For Items", "Claiming Treasure"). The first five are the
# containers ("treasure boxes"); an item code below N_CONTAINERS is also a container code.
UNLOCKED_BOX, UNLOCKED_CHEST, LOCKED_BOX, LOCKED_CHEST, LOCKED_SAFE, JUNK, SHARK, SAFETY = range(8)
N_ITEM_KINDS = 8
N_CONTAINERS = 5
ITEM_NAMES = (
    "unlocked box",
    "unlocked chest",
    "locked box",
    "locked chest",
    "locked safe",
    "junk",
    "shark",
    "safety",
)
# Container -> size (0 box, 1 chest, 2 safe): "Box = 1 ..., Chest = 2 ..., Safe = 3 Treasure
# Cards" (the number of cards per size is the rules field `bags`).
CONTAINER_SIZE = (0, 1, 0, 1, 2)
# "If the item is locked (Locked Box, Locked Chest or Locked Safe) you must first attempt to
# break the lock"; 1 = locked.
LOCKED = np.array([0, 0, 1, 1, 1], dtype=np.int64)

# Attempt cards (seed 004, "Breaking a Lock").
OPEN, CRACKED, NO_EFFECT, FAIL, TRAPPED = range(5)
N_ATTEMPT_KINDS = 5
ATTEMPT_NAMES = ("open", "cracked", "no effect", "fail", "trapped")

# Deck ids (for traces and reshuffle counters).
ITEM_DECK, ATTEMPT_DECK, TREASURE_DECK = range(3)
DECK_NAMES = ("item", "attempt", "treasure")

# Capacities of the flat state (rules.validate keeps decks within them).
MAX_ITEMS = 96
MAX_ATTEMPTS = 64
MAX_TREASURES = 64
MAX_TREASURE_KINDS = 10

# GAME-DATA.md reconstruction of the decks (the default rules).
DEFAULT_ITEM_DECK = (6, 4, 5, 4, 2, 8, 7, 5)
DEFAULT_ATTEMPT_DECK = (8, 4, 4, 3, 2)
DEFAULT_TREASURE_VALUES = (1000, 2000, 3000, 5000, 10000)
DEFAULT_TREASURE_COUNTS = (6, 6, 4, 3, 1)
