"""The Milton Bradley board of Chutes and Ladders: 100 squares, nine ladders, ten chutes, a
spinner of 1 to 6. Square 0 is off the board, where every piece starts."""

from __future__ import annotations

MAX_PLAYERS = 4
FINISH = 100  # the last square: the first piece to land on it exactly wins
N_SQUARES = FINISH + 1  # squares 0 (off the board) to 100
MAX_FACES = 12  # the spinner's faces the rules may give

LADDERS = ((1, 38), (4, 14), (9, 31), (21, 42), (28, 84), (36, 44), (51, 67), (71, 91), (80, 100))
CHUTES = (
    (16, 6),
    (47, 26),
    (49, 11),
    (56, 53),
    (62, 19),
    (64, 60),
    (87, 24),
    (93, 73),
    (95, 75),
    (98, 78),
)
# the rules' default `links`: (from, to) in order of the square they start on
MILTON_BRADLEY = tuple(sorted(LADDERS + CHUTES))
SPINNER = (1, 2, 3, 4, 5, 6)
