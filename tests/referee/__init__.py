"""An independent referee for Sunken City traces (docs/trace-format.md).

It reads the JSON lines of one game only: it imports nothing from the engine (``simcore``) or
the analysis code, builds its own model of the game from the rules in the header, and replays
every action, judging it against the rulebook (seed 000) and the default rulings of
GAME-DATA.md:

* the recorded ``state`` before every turn must equal the referee's own state (the first one
  must be the rulebook's setup);
* every action must be legal, and every consequence the trace records (treasures recovered and
  banked, pieces sunk, adventurers sent home, chips, stack turnovers, the hourglass) must be
  exactly what the rules make happen;
* the ``end`` line must report the right end, scores and winner.

Advanced-game traces (header rules ``"advanced": true``) are judged against seed 001's
"Advanced Game" sections and the project's documented rulings (docs/trace-format.md, "The
advanced game"): all houses start in the grotto and the spirit in grotto space 10; a card's top
number is building points in the raising phase and spirit points in the sinking phase; only the
house of the spirit's grotto space may be raised; using up the draw stack switches to sinking
(the spirit appears at the house of its grotto space, else the highest-numbered house on the
lake, else it stays in the grotto), the spirit must use all its points, and when it cannot move
it spends 1 point to be banished to a grotto space, which starts a raising phase; entering the
house of the spirit's grotto space in the raising phase lets the player send the spirit to
another grotto space; the hourglass ends the game only once the last sinking phase has ended.

``check_trace(lines)`` returns the violations as readable strings (an empty list: the trace is
legal). Run as a script it checks a file (or standard input) and exits 1 on any violation:

    python -m tests.referee trace.jsonl
    balance replay sunken-city --seed 1 --game 5 --format jsonl | python -m tests.referee

The package, each module a layer of the one Referee class: board (constants, squares, the turn
in progress), state (the referee's model of the game and the recorded state), turns (a turn
and the players' actions), spirit (the spirit, sinking and the advanced game), check (the end
line, check_trace and the command line).
"""

from __future__ import annotations

from tests.referee.board import TraceError
from tests.referee.check import Referee, check_trace, main

__all__ = ["Referee", "TraceError", "check_trace", "main"]
