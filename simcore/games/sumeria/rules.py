"""Sumeria rules as data: every number a designer may vary, named variants, packing.

Sources: seed 002 (the publisher's rulebook) and ../shared/GAME-DATA.md (the trade-route map,
a reconstruction, and its movement ruling). Every unclear sentence of the rulebook is a field
here with the chosen ruling as its default; docs/rules-sumeria.md lists them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from simcore.base.rulesbase import (
    POINTS_WORDS,
    RulesBase,
    RulesError,
    in_range,
    one_of,
    variant_registry,
)
from simcore.games.sumeria.board import (
    MAX_DEG,
    N_DIRECTED,
    N_LOCS,
    N_STATES,
    adjacency,
    load_map,
    map_names,
    straight_runs,
)

MAX_PLAYERS = 4
MAX_SCORED = 4  # most city-states scored per round (tiles_per_state entries)
SCORING = ("triangular", "linear")
FALLBACK = ("latest", "earliest")


@dataclass(frozen=True)
class SumeriaRules(RulesBase, game="sumeria", players=(3, MAX_PLAYERS)):
    """Every rule parameter of Sumeria (seed 002)."""

    rounds: int = in_range(6, 1, 50)
    """rounds played ("6 rounds are played so that all the Influence tiles come into play")"""
    turns_per_round: int = in_range(3, 1, 20)
    """turns each player takes in a round ("players ... take 3 turns")"""
    traders: tuple[int, int] = in_range((14, 10), 0, N_LOCS)
    """traders per player in a 3- and a 4-player game"""
    initial_traders: tuple[int, int] = in_range((8, 5), 0, N_LOCS)
    """traders each player places at setup in a 3- and a 4-player game"""
    tiles_per_state: tuple[int, ...] = in_range((3, 2, 1), 1, 9)
    """influence tiles above each scored city-state, most important first; the number of
    entries is the number of city-states scored per round (controller takes all but one when
    there are 2 or more, the second-place player the rest)"""
    tiles_per_type: int = in_range(9, 1, 50)
    """influence tiles of each of the 4 types in the bag (when the bag runs out, the spaces
    stay empty)"""
    scoring: str = one_of("triangular", SCORING)
    """'triangular': n tiles of one type score n(n+1)/2 (the rulebook's table); 'linear': 1
    point per tile"""
    map: str = "default"
    """trade-route map: default (GAME-DATA reconstruction), ring, cross, city-chords, or a map
    file path"""
    setup_shifts_order: bool = False
    """ruling: do traders placed at setup move their city-state's tile left like an Add?"""
    move_shifts_source: bool = False
    """ruling: does the city-state a trader moves out of lose influence (tile swapped right)?
    The rulebook names only the destination's gain."""
    first_player_states: int = in_range(8, 1, N_STATES)
    """ruling: city-states (in order of importance) consulted for the fewest-traders tie-break
    that makes the next round's last player"""
    first_player_fallback: str = one_of("latest", FALLBACK)
    """ruling: when still tied after those city-states, the tied player who played 'latest'
    (or 'earliest') in the round becomes last"""
    # the designer's additions (seat compensation, issue #38; docs/rules-sumeria.md)
    seat_points: tuple[int, ...] = in_range((), -50, 50)
    """compensation: points added to each seat's final score, seat 0 first, e.g. 0,0,2"""
    seat_traders: tuple[int, ...] = in_range((), 0, N_LOCS)
    """compensation: traders each seat places at setup beyond initial_traders (from its own
    traders), seat 0 first, e.g. 0,0,1; the placement goes on in turn order, skipping the seats
    that have placed all theirs"""

    ADDITIONS = SEAT_FIELDS = ("seat_points", "seat_traders")
    SEAT_SEARCH = {"seat_points": 6, "seat_traders": 2}
    SEAT_WORDS = dict(seat_points=POINTS_WORDS, seat_traders="places {n} more trader{s} at setup")

    # ----------------------------------------------------------------------------------
    def check(self, players: int | None) -> None:
        """Raise RulesError with one clear sentence when a field is out of range."""
        if len(self.traders) != 2 or len(self.initial_traders) != 2:
            raise RulesError("traders and initial_traders need two counts (3 and 4 players)")
        for n, t, i in zip((3, 4), self.traders, self.initial_traders):
            if t < 1 or i < 0 or i > t:
                raise RulesError(
                    f"{n} players: traders must be at least 1 and initial_traders 0 to traders"
                )
            if n * t > N_LOCS:
                raise RulesError(f"{n} players x {t} traders do not fit on the {N_LOCS} locations")
        if not 1 <= len(self.tiles_per_state) <= MAX_SCORED:
            raise RulesError(f"tiles_per_state needs 1 to {MAX_SCORED} entries")
        if any(not 1 <= k <= 9 for k in self.tiles_per_state):
            raise RulesError("each entry of tiles_per_state must be 1 to 9")
        if players is not None and any(self.seat_traders):
            t, i = self.traders[players - 3], self.initial_traders[players - 3]
            if max(self.seat_traders) > t - i:
                raise RulesError(
                    f"seat_traders gives a seat {max(self.seat_traders)} more traders at setup, "
                    f"but with {players} players a seat places {i} of its {t} (at most {t - i} "
                    "more)"
                )
        try:
            load_map(self.map)
        except ValueError as e:
            raise RulesError(str(e)) from None


# ---------------------------------------------------------------------------------------
# Named variants, by the fields they set; they compose ("short+linear").
VARIANTS = variant_registry("the rulebook's game (no change)")
VARIANTS.add("short", "4 rounds instead of 6 (a third of the tiles stay in the bag)", rounds=4)
VARIANTS.add("four-turns", "4 turns per player and round instead of 3", turns_per_round=4)
VARIANTS.add(
    "even-tiles",
    "2 tiles above each scored city-state (2/2/2, not 3/2/1)",
    tiles_per_state=(2, 2, 2),
)
VARIANTS.add("few-traders", "2 traders fewer per player (12 / 8)", traders=(12, 8))
VARIANTS.add(
    "linear", "1 point per influence tile instead of the triangular table", scoring="linear"
)
# Component readings of the trade-route map (issue #25; docs/component-readings.md).
MAP = "trade-route map"
VARIANTS.add_reading(
    "ring-map",
    "the map without its two chords (a plain ring of city-states)",
    MAP,
    "the simplest layout consistent with the 8 city-states of 7 locations: the default's ring "
    "of states without any shortcut across the board (56 routes)",
    map="ring",
)
VARIANTS.add_reading(
    "cross-map",
    "the ring with four chords joining opposite city-states",
    MAP,
    "a symmetric reading: every city-state, not only 1, 2, 5 and 6, has a shortcut to the "
    "opposite state (V2 villages 1-5, 2-6, 3-7, 4-8; 60 routes)",
    map="cross",
)
VARIANTS.add_reading(
    "city-chords-map",
    "the default map with its two chords between cities (1C-6C, 2C-5C)",
    MAP,
    "the same 58 routes and the same pairs of city-states joined, but the shortcuts run "
    "between the cities (main ports) instead of the V2 villages, so they start and end at the "
    "most important locations",
    map="city-chords",
)
VARIANTS.add(
    "source-loses",
    "ruling option: a trader moving out costs its state influence",
    move_shifts_source=True,
)


# ---------------------------------------------------------------------------------------
# Packing for the kernels: one flat int64 array r.
P_PLAYERS = 0
P_ROUNDS = 1
P_TURNS = 2
P_TRADERS = 3  # traders per player for this player count
P_INITIAL = 4  # traders placed at setup per player
P_N_SCORED = 5  # city-states scored per round
P_TILES_PER_TYPE = 6
P_SCORING = 7  # 0 triangular, 1 linear
P_SETUP_SHIFTS = 8
P_MOVE_SHIFTS_SOURCE = 9
P_FP_STATES = 10
P_FP_FALLBACK = 11  # 0 latest, 1 earliest
P_N_ROUTES = 12
P_SETUP_TOTAL = 13  # traders placed at setup by all the seats (initial + seat_traders)
N_PARAMS = 16
R_TILES = N_PARAMS  # [4] tiles above each scored position (first P_N_SCORED used)
R_DEG = R_TILES + MAX_SCORED  # [56] routes at each location
R_ADJ = R_DEG + N_LOCS  # [56 x MAX_DEG] neighbours, -1 padding
# The straight runs of the move search (board.straight_runs): one record of RUN_W values per
# directed route e = q * MAX_DEG + j at R_RUNS + e * RUN_W.
RUN_ALL = 0  # bitmask of the run's locations
RUN_LOCS = 1  # the locations in order, 6 bits each (the first in the low bits)
RUN_NOUT = 2  # routes on from the last location
RUN_OUT = 3  # [MAX_DEG - 1] those routes (directed ids, in route order)
RUN_W = RUN_OUT + MAX_DEG - 1  # 8 values: a record is 64 bytes
R_RUNS = R_ADJ + N_LOCS * MAX_DEG  # [N_DIRECTED x RUN_W]
R_SEAT_POINTS = R_RUNS + N_DIRECTED * RUN_W  # [4] points added to each seat's final score
R_SEAT_SETUP = R_SEAT_POINTS + MAX_PLAYERS  # [4] traders each seat places at setup
RULES_SIZE = R_SEAT_SETUP + MAX_PLAYERS


@functools.cache
def _map_tables(routes):
    adj, deg = adjacency(routes)
    return adj, deg, straight_runs(adj, deg)


def pack(rules: SumeriaRules, players: int) -> np.ndarray:
    """Validate the rules for a player count and pack them into the flat kernel array."""
    r = rules.packed(players, RULES_SIZE)
    r[R_SEAT_POINTS : R_SEAT_POINTS + players] = rules.seat_values("seat_points", players)
    r[P_ROUNDS] = rules.rounds
    r[P_TURNS] = rules.turns_per_round
    r[P_TRADERS] = rules.traders[players - 3]
    r[P_INITIAL] = rules.initial_traders[players - 3]
    setup = [r[P_INITIAL] + k for k in rules.seat_values("seat_traders", players)]
    r[R_SEAT_SETUP : R_SEAT_SETUP + players] = setup
    r[P_SETUP_TOTAL] = sum(setup)
    r[P_N_SCORED] = len(rules.tiles_per_state)
    r[P_TILES_PER_TYPE] = rules.tiles_per_type
    r[P_SCORING] = SCORING.index(rules.scoring)
    r[P_SETUP_SHIFTS] = int(rules.setup_shifts_order)
    r[P_MOVE_SHIFTS_SOURCE] = int(rules.move_shifts_source)
    r[P_FP_STATES] = rules.first_player_states
    r[P_FP_FALLBACK] = FALLBACK.index(rules.first_player_fallback)
    r[R_TILES : R_TILES + len(rules.tiles_per_state)] = rules.tiles_per_state
    routes = load_map(rules.map)
    r[P_N_ROUTES] = len(routes)
    adj, deg, (length, locs, read, nout, out) = _map_tables(routes)
    r[R_DEG : R_DEG + N_LOCS] = deg
    r[R_ADJ : R_ADJ + N_LOCS * MAX_DEG] = adj.ravel()
    runs = r[R_RUNS : R_RUNS + N_DIRECTED * RUN_W].reshape(N_DIRECTED, RUN_W)
    runs[:, RUN_ALL] = read[np.arange(N_DIRECTED), np.maximum(length - 1, 0)]
    runs[:, RUN_LOCS] = locs
    runs[:, RUN_NOUT] = nout
    runs[:, RUN_OUT:RUN_W] = out[:, : MAX_DEG - 1]  # every route but the one it came by
    return r


MAP_NAMES = map_names()
