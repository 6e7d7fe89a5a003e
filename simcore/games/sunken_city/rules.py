"""Sunken City rules as data: every number a designer may vary, named variants, packing.

Sources: seed 000 (publisher's rulebook of the basic game) and ../shared/GAME-DATA.md for what
the rulebook leaves out. Every reconstructed number is a field here, changeable with
``--set key=value`` or a variant file; docs/rules-sunken-city.md lists which are reconstructions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.base.rulesbase import RulesBase, RulesError, in_range, one_of, variant_registry
from simcore.games.sunken_city.board import N_SQUARES, SIZE

# The three dice of the box (seed 000, "Components").
DICE: dict[str, tuple[int, ...]] = {
    "beige": (1, 2, 2, 3, 3, 4),
    "black": (0, 1, 2, 2, 3, 3),
    "purple": (0, 1, 1, 2, 2, 3),
}
# The die the rulebook gives each player count (seed 000, "Setup").
DIE_FOR_PLAYERS = {2: "beige", 3: "black", 4: "purple"}
# rules values a user may give by name (--set die=black)
NAMED_VALUES = {"die": DICE}

# Movement cards: (pieces raised, movement points, water-spirit icon). Reconstruction
# (GAME-DATA.md, "Movement cards").
DEFAULT_CARDS: tuple[tuple[int, int, int], ...] = (
    (0, 7, 0),
    (1, 6, 0),
    (2, 5, 1),
    (3, 4, 1),
    (4, 3, 1),
    (2, 4, 1),
)

# The lake: '#' dark (streets or houses), '.' light (streets only), 'C' centre (houses only).
# Reconstruction (GAME-DATA.md): dark = Manhattan distance <= 4 from the centre, except the
# centre's 8 neighbours.
DEFAULT_BOARD = "/".join(
    [
        "....#....",
        "...###...",
        "..#####..",
        ".##...##.",
        "###.C.###",
        ".##...##.",
        "..#####..",
        "...###...",
        "....#....",
    ]
)

MAX_PLAYERS = 4
N_HOUSES = 10
N_TREASURES = 11  # treasures 1..10 and the chest (12)
N_SPACES = 6  # street spaces 1..6
# Corners of the lake, clockwise from the top left: (0,0), (0,8), (8,8), (8,0).
CORNER_SQUARES = (0, SIZE - 1, N_SQUARES - 1, N_SQUARES - SIZE)

SCORING = ("count", "value")
MAX_FACE = 99  # die faces and the owner's spirit limit: squares the spirit may move
MAX_STREETS = 60  # streets in the box
# Action order (seed 000: "Each card allows 3 actions ... The order of these actions is free to
# choose"): "blocks" = each of the three actions whole, in any order (default of the basic
# game); "intermingled" = raising and the adventurer's steps may be split around the other
# actions (seed 001 says so of the advanced game: "actions may be intermingled").
ACTION_ORDERS = ("blocks", "intermingled")
# When a water-spirit chip may be played (seed 000's example counts its points "from the
# treasures that, before their move, were showing the house side up"): "before-move" = before
# the adventurer's first step of the turn (default); "any-time" = also in the middle of the move.
CHIP_TIMINGS = ("before-move", "any-time")


@dataclass(frozen=True)
class SunkenCityRules(RulesBase, game="sunken-city", players=(2, MAX_PLAYERS)):
    """Every rule parameter of Sunken City (basic game, seed 000)."""

    die: tuple[int, ...] = in_range((), 0, MAX_FACE)
    """faces of the water-spirit die; empty = the box's die for the player count
    (2: beige, 3: black, 4: purple). A die name (beige, black, purple) is accepted too."""
    streets_space1: tuple[int, int, int] = in_range((20, 23, 26), 0, MAX_STREETS)
    """streets face up on street space 1 at setup, for 2, 3 and 4 players"""
    facedown_streets: int = in_range(1, 0, MAX_STREETS // 4)
    """face-down streets placed on each of street spaces 2 to 5 at setup"""
    total_streets: int = in_range(30, 1, MAX_STREETS)
    """streets in the box (those not set out stay in the box all game)"""
    street_squares: int = in_range(2, 1, 2)
    """squares one street covers: 2 (domino, GAME-DATA default) or 1 (literal reading)"""
    cards: tuple[tuple[int, int, int], ...] = in_range(DEFAULT_CARDS, 0, 30)
    """movement cards as raise/move/icon triples, e.g. 0/7/0,1/6/0,... (reconstruction)"""
    owner_limit: tuple[int, int, int] = in_range((4, 3, 3), 0, MAX_FACE)
    """spirit movement limit for the territory's owner, for 2, 3 and 4 players"""
    board: str = DEFAULT_BOARD
    """lake pattern, 9 rows joined by '/': '#' dark, '.' light, 'C' centre (reconstruction)"""
    territory_size: int = in_range(4, 1, 4)
    """side of each player's square territory at their corner"""
    corners_2p: tuple[int, int] = in_range((0, 2), 0, 3)
    """corners used by the 2 seats of a 2-player game (0=(0,0), 1=(0,8), 2=(8,8), 3=(8,0))"""
    scoring: str = one_of("count", SCORING)
    """'count': most treasures banked, tie-break their sum (seed 000); 'value': sum (seed 001)"""
    chips: bool = True
    """water-spirit chips in play (the 'no-chips' variant turns them off)"""
    chip_supply: int = in_range(8, 0, 100)
    """chips in the supply; when it is empty a player sent home gets none (ruling)"""
    use_house_1: bool = True
    """house 1 and treasure 1 in play (the 'short' variant removes them)"""
    spirit_needs_icon: bool = True
    """the spirit may be moved only with a card showing the water-spirit icon (ruling)"""
    action_order: str = one_of("blocks", ACTION_ORDERS)
    """'blocks': each of the three actions (raise, move the adventurer, move the spirit) is
    done whole, in an order the player chooses (seed 000, default); 'intermingled': raising
    and the adventurer's steps may be split around the other actions (seed 001's advanced game;
    the 'intermingled' variant)"""
    chip_timing: str = one_of("before-move", CHIP_TIMINGS)
    """'before-move': a chip is played before the adventurer's first step of the turn (seed
    000's example); 'any-time': also in the middle of the move"""
    max_rounds: int = in_range(200, 1, 10_000)
    """safety cap: the game ends after this many rounds (end reason 'round-limit')"""
    advanced: bool = False
    """seed 001's advanced game: raising and sinking phases, houses start in the grotto, the
    spirit in grotto space 10, the card icons ignored (the 'advanced' variant sets this)"""
    chip_for_own_sinking: bool = False
    """a player whose adventurer sinks under a spirit they moved themselves gets a chip too
    (seed 001's advanced text drops seed 000's 'only if another player moved Neptune'; the
    default keeps seed 000's condition in both games: ruling)"""
    # the designer's additions (seat compensation, issue #38; docs/rules-sunken-city.md)
    seat_chips: tuple[int, ...] = in_range((), 0, 100)
    """compensation: water-spirit chips each seat holds at the start, seat 0 first (taken from
    the supply; needs chips in play), e.g. 0,0,1"""
    seat_points: tuple[int, ...] = in_range((), -50, 50)
    """compensation: points added to each seat's final score, seat 0 first, in the scoring's
    unit (treasures under 'count', treasure value under 'value'), e.g. 0,1,0"""
    seat_value: tuple[int, ...] = in_range((), 0, 50)
    """compensation: treasure value added to each seat's banked treasures at the end, seat 0
    first: the tie-break under 'count' (a finer step than a point), the score under 'value'"""
    seat_tiebreak: tuple[int, ...] = in_range((), 0, 9)
    """compensation: each seat's tie rank, seat 0 first: seats still tied at the end (the same
    score and the same tie-break) do not share the win, the highest rank among them wins
    (equal ranks share it), e.g. 0,1,2: a finer step than a treasure value"""
    finish_round: bool = True
    """when an end condition occurs the round is finished (the rulebook); false: the game ends
    with the turn in which it occurs (a designer's alternative)"""

    ADDITIONS = ("seat_chips", "seat_points", "seat_value", "seat_tiebreak", "finish_round")
    SEAT_FIELDS = ("seat_chips", "seat_points", "seat_value", "seat_tiebreak")
    SEAT_SEARCH = {"seat_chips": 2, "seat_points": 1, "seat_value": 8, "seat_tiebreak": 2}
    SEAT_RANKS = ("seat_tiebreak",)
    SEAT_WORDS = {
        "seat_chips": "starts with {n} water-spirit chip{s}",
        "seat_points": "scores {n} point{s} more at the end",
        "seat_value": "adds {n} to the value of its treasures at the end",
        "seat_tiebreak": "has tie rank {n}|of the players still tied in treasures and value, "
        "the highest tie rank wins; the others have rank 0",
    }
    END_RULES = {
        "finish_round": (
            "false",
            "the game ends with the turn in which an end condition occurs (the round is not "
            "finished)",
        )
    }

    # ----------------------------------------------------------------------------------
    def check(self, players: int | None) -> None:
        """Raise RulesError with one clear sentence when a field is out of range."""
        if self.die:
            if len(self.die) < 1 or any((not isinstance(f, int)) or f < 0 for f in self.die):
                raise RulesError("die faces must be whole numbers of 0 or more")
            if len(self.die) > 20:
                raise RulesError("a die has at most 20 faces")
        if self.street_squares not in (1, 2):
            raise RulesError("street_squares must be 1 or 2")
        if self.total_streets < 1 or self.total_streets > 60:
            raise RulesError("total_streets must be between 1 and 60")
        if len(self.streets_space1) != 3 or any(s < 0 for s in self.streets_space1):
            raise RulesError("streets_space1 needs three counts of 0 or more (2, 3, 4 players)")
        if self.facedown_streets < 0:
            raise RulesError("facedown_streets must be 0 or more")
        for n, s in zip((2, 3, 4), self.streets_space1):
            need = s + 4 * self.facedown_streets
            if need > self.total_streets:
                raise RulesError(
                    f"setup for {n} players needs {need} streets but only "
                    f"{self.total_streets} exist (streets_space1, facedown_streets)"
                )
        if len(self.cards) < 1 or len(self.cards) > 15:
            raise RulesError("cards must hold 1 to 15 raise/move/icon triples")
        for c in self.cards:
            if len(c) != 3 or c[0] < 0 or c[1] < 0 or c[2] not in (0, 1) or c[0] > 10 or c[1] > 30:
                raise RulesError(
                    "each card is raise/move/icon with raise 0-10, move 0-30, icon 0 or 1"
                )
        if len(self.owner_limit) != 3 or any(x < 0 for x in self.owner_limit):
            raise RulesError("owner_limit needs three limits of 0 or more (2, 3, 4 players)")
        rows = self.board.split("/")
        if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
            raise RulesError("board must be 9 rows of 9 characters joined by '/'")
        flat = "".join(rows)
        if set(flat) - set("#.C"):
            raise RulesError("board characters must be '#' (dark), '.' (light) or 'C' (centre)")
        if flat.count("C") != 1:
            raise RulesError("board must have exactly one centre square 'C'")
        if any(flat[q] == "C" for q in CORNER_SQUARES):
            raise RulesError("the centre cannot be a corner square (villages reach the corners)")
        if len(self.corners_2p) != 2 or len(set(self.corners_2p)) != 2:
            raise RulesError("corners_2p must name two different corners 0-3")
        if any(c not in (0, 1, 2, 3) for c in self.corners_2p):
            raise RulesError("corners_2p must name two different corners 0-3")
        if any(self.seat_chips):
            if not self.chips:
                raise RulesError("seat_chips needs the chips in play (chips=true)")
            if sum(self.seat_chips) > self.chip_supply:
                raise RulesError(
                    f"seat_chips hands out {sum(self.seat_chips)} chips but the supply holds "
                    f"{self.chip_supply} (chip_supply)"
                )
        if self.advanced:
            if self.action_order != "intermingled":
                raise RulesError(
                    "the advanced game intermingles raising, sinking and moving (seed 001): "
                    "action_order=blocks is for the basic game only (--variant advanced sets "
                    "action_order=intermingled)"
                )
            if players is not None and self.streets_space1[players - 2] < 1:
                raise RulesError("the advanced game needs at least one street on street space 1")

    def die_faces(self, players: int) -> tuple[int, ...]:
        """The die in use for this player count."""
        return tuple(self.die) if self.die else DICE[DIE_FOR_PLAYERS[players]]

    def resolved_extra(self, players: int) -> dict:
        """The die resolved for this player count, and the chip supply as played: 0 when the
        chips are off (the 'no-chips' variant), as the packed rules and the state have it."""
        return {
            "die": list(self.die_faces(players)),
            "chip_supply": self.chip_supply if self.chips else 0,
        }


# ---------------------------------------------------------------------------------------
# Named variants, by the fields they set; they compose ("short+no-chips").
VARIANTS = variant_registry("the rulebook's basic game (no change)")
VARIANTS.add(
    "short", "seed 000 'A Shorter Playing Time': no house 1, no treasure 1", use_house_1=False
)
VARIANTS.add("no-chips", "seed 000 'Without Water Spirit Chips': nobody gets chips", chips=False)
VARIANTS.add(
    "intermingled",
    "raising and the adventurer's steps may be split around the other actions (the reading "
    "before issue #23; seed 001 allows it in the advanced game)",
    action_order="intermingled",
)
VARIANTS.add(
    "value-scoring", "seed 001's reading: the winner has the highest sum of values", scoring="value"
)
# "Place 14, 18 or 22 street tiles (for 2, 3 or 4 players)"; chips are "(optional rule)":
# off by default, the 'chips' variant (or --set chips=true) turns them on.
VARIANTS.add(
    "advanced",
    "seed 001's advanced game: raising and sinking phases, 14/18/22 streets, no chips",
    advanced=True,
    streets_space1=(14, 18, 22),
    chips=False,
    action_order="intermingled",
)
VARIANTS.add(
    "chips", "water-spirit chips in play (seed 001's optional rule for 'advanced')", chips=True
)
VARIANTS.add(
    "single-square-streets", "the literal reading: one street covers one square", street_squares=1
)

# ---------------------------------------------------------------------------------------
# Component readings (issue #25; docs/component-readings.md): other plausible values of the
# reconstructed board and cards that keep every fact of the rulebook and GAME-DATA.md.

# The same 32 dark squares, 5 in each territory, row 4 and column 4 as in the default and up
# to 13 non-touching houses; the dark water lies one step further from the centre.
RING_BOARD = (
    "....#..../..#####../.##.#.##./.#.....#./###.C.###/.#.....#./.##.#.##./..#####../....#...."
)
# 32 dark squares at Manhattan distance 4 and 5 from the centre: a wide ring, 7 dark squares
# in each territory, up to 13 non-touching houses.
WIDE_BOARD = (
    "...###.../..##.##../.##...##./##.....##/#...C...#/##.....##/.##...##./..##.##../...###..."
)
DARK_SQUARES = "dark squares"
CARDS = "movement cards"
VARIANTS.add_reading(
    "dark-squares-ring",
    "dark squares as a ring one step further out (32 dark, 5 per territory)",
    DARK_SQUARES,
    "no source gives the printed pattern; this one keeps every number of the reconstruction "
    "(32 dark squares, 5 per territory, row 4 and column 4, 13 non-touching houses) and the "
    "reviews' 'diamond around the centre, light water around the centre and near the villages', "
    "with a wider ring of light water round the centre",
    board=RING_BOARD,
)
VARIANTS.add_reading(
    "dark-squares-wide",
    "dark squares at distance 4-5 from the centre (32 dark, 7 per territory)",
    DARK_SQUARES,
    "the reviews' diamond read as a wide band: the 32 squares at Manhattan distance 4 and 5, so "
    "the centre lies in a large light pool and the dark water comes closer to the villages (7 "
    "dark squares per territory instead of 5; still 13 non-touching houses)",
    board=WIDE_BOARD,
)
VARIANTS.add_reading(
    "cards-flat",
    "cards 0/7, 1/5, 2/5*, 2/5*, 3/4*, 4/3* (flatter movement, same totals)",
    CARDS,
    "keeps the rulebook's example cards (2/5, 3/4, 4/3 with the spirit), the 0/7 card, the "
    "raise numbers, 4 spirit icons and the totals (12 raised, 29 movement points); the "
    "movement is spread more evenly (7, 5, 5, 5, 4, 3 instead of 7, 6, 5, 4, 4, 3)",
    cards=((0, 7, 0), (1, 5, 0), (2, 5, 1), (3, 4, 1), (4, 3, 1), (2, 5, 1)),
)
VARIANTS.add_reading(
    "cards-spread",
    "cards 0/7, 0/7, 2/5*, 3/4*, 4/3*, 3/3* (two pure movers, same totals)",
    CARDS,
    "keeps the rulebook's example cards, 4 spirit icons and the totals (12 raised, 29 movement "
    "points) with raise + move 6-7 on every card; the two cards the sources do not pin down "
    "are the extremes (a second 0/7 and a 3/3) instead of 1/6 and 2/4",
    cards=((0, 7, 0), (0, 7, 0), (2, 5, 1), (3, 4, 1), (4, 3, 1), (3, 3, 1)),
)
VARIANTS.add_reading(
    "cards-icons-fast",
    "the default numbers; spirit icons on 0/7, 1/6, 2/5 and 4/3",
    CARDS,
    "the sources say only that some cards show the spirit; the rulebook's example moves it "
    "with the 4/3 card, so that one keeps its icon, and the other three icons sit on the fast "
    "cards (0/7, 1/6, 2/5) instead of the builders (3/4, 2/4)",
    cards=((0, 7, 1), (1, 6, 1), (2, 5, 1), (3, 4, 0), (4, 3, 1), (2, 4, 0)),
)


# ---------------------------------------------------------------------------------------
# Packing for the kernels.

# The packed rules: one flat int64 array r (one call argument instead of six; see state.py).
P_PLAYERS = 0
P_STREETS1 = 1
P_FACEDOWN = 2
P_TOTAL_STREETS = 3
P_STREET_SQUARES = 4
P_OWNER_LIMIT = 5
P_SCORING = 6  # 0 count, 1 value
P_CHIPS = 7
P_CHIP_SUPPLY = 8  # 0 when chips are off
P_USE_HOUSE_1 = 9
P_NEEDS_ICON = 10
P_INTERLEAVE = 11  # 1: action_order = intermingled
P_MAX_ROUNDS = 12
P_CENTRE = 13  # square index of the centre
P_N_CARDS = 14
P_DIE_N = 15  # faces on the die
P_N_HOUSE_SQ = 16  # squares that take houses (dark squares and the centre)
P_N_SPOTS = 17  # street spots of the board (pairs of squares, or single squares)
P_ADVANCED = 18  # 1: seed 001's advanced game (phases)
P_SELF_CHIP = 19  # 1: a chip also for sinking one's own adventurer
P_CHIP_ANY_TIME = 20  # 1: chip_timing = any-time (a chip also in the middle of a move)
P_FINISH_ROUND = 21  # 1: the round is finished when an end condition occurs (the rulebook)
N_PARAMS = 22
MAX_FACES = 20
MAX_CARDS = 15
R_KIND = N_PARAMS  # [81] LIGHT, DARK, CENTRE
R_OWNER = R_KIND + N_SQUARES  # [81] seat whose territory holds the square, -1 nobody
R_VILLAGE = R_OWNER + N_SQUARES  # [4] corner square each seat's village reaches, -1 unused
R_DIE = R_VILLAGE + MAX_PLAYERS  # [20] die faces (first P_DIE_N used)
R_CARDS = R_DIE + MAX_FACES  # [15 x 3] raise, move, icon
R_HOUSE_SQ = R_CARDS + 3 * MAX_CARDS  # [81] the squares that take houses (first P_N_HOUSE_SQ)
R_SPOTS = R_HOUSE_SQ + N_SQUARES  # [144 x 2] street spots: two edge-adjacent non-centre
#                                    squares (b = -1 for 1-square streets); first P_N_SPOTS
R_SEAT_CHIPS = R_SPOTS + 2 * 2 * SIZE * (SIZE - 1)  # [4] chips each seat starts with
R_SEAT_POINTS = R_SEAT_CHIPS + MAX_PLAYERS  # [4] points added to each seat's final score
R_SEAT_VALUE = R_SEAT_POINTS + MAX_PLAYERS  # [4] treasure value added to each seat's banked
R_SEAT_TIE = R_SEAT_VALUE + MAX_PLAYERS  # [4] tie rank of each seat (a tie in both: highest)
RULES_SIZE = R_SEAT_TIE + MAX_PLAYERS

# Square kinds.
LIGHT, DARK, CENTRE = 0, 1, 2


def seat_corners(rules: SunkenCityRules, players: int) -> tuple[int, ...]:
    """Corner index (0..3, clockwise from (0,0)) of each seat's village."""
    return tuple(rules.corners_2p) if players == 2 else tuple(range(players))


def pack(rules: SunkenCityRules, players: int) -> np.ndarray:
    """Validate the rules for a player count and pack them into the flat kernel array."""
    r = rules.packed(players, RULES_SIZE)
    r[P_STREETS1] = rules.streets_space1[players - 2]
    r[P_FACEDOWN] = rules.facedown_streets
    r[P_TOTAL_STREETS] = rules.total_streets
    r[P_STREET_SQUARES] = rules.street_squares
    r[P_OWNER_LIMIT] = rules.owner_limit[players - 2]
    r[P_SCORING] = SCORING.index(rules.scoring)
    r[P_CHIPS] = int(rules.chips)
    r[P_CHIP_SUPPLY] = rules.chip_supply if rules.chips else 0
    r[P_USE_HOUSE_1] = int(rules.use_house_1)
    r[P_NEEDS_ICON] = int(rules.spirit_needs_icon)
    r[P_INTERLEAVE] = int(rules.action_order == "intermingled")
    r[P_CHIP_ANY_TIME] = int(rules.chip_timing == "any-time")
    r[P_MAX_ROUNDS] = rules.max_rounds
    r[P_ADVANCED] = int(rules.advanced)
    r[P_SELF_CHIP] = int(rules.chip_for_own_sinking)
    r[P_FINISH_ROUND] = int(rules.finish_round)
    r[R_SEAT_CHIPS : R_SEAT_CHIPS + players] = rules.seat_values("seat_chips", players)
    r[R_SEAT_POINTS : R_SEAT_POINTS + players] = rules.seat_values("seat_points", players)
    r[R_SEAT_VALUE : R_SEAT_VALUE + players] = rules.seat_values("seat_value", players)
    r[R_SEAT_TIE : R_SEAT_TIE + players] = rules.seat_values("seat_tiebreak", players)
    flat = rules.board.replace("/", "")
    r[P_CENTRE] = flat.index("C")
    r[P_N_CARDS] = len(rules.cards)
    die = rules.die_faces(players)
    r[P_DIE_N] = len(die)
    r[R_DIE : R_DIE + len(die)] = die
    for i, c in enumerate(rules.cards):
        r[R_CARDS + 3 * i : R_CARDS + 3 * i + 3] = c
    r[R_KIND : R_KIND + N_SQUARES] = [{".": LIGHT, "#": DARK, "C": CENTRE}[ch] for ch in flat]
    spots = []
    for q in range(N_SQUARES):
        row, col = divmod(q, SIZE)
        if flat[q] == "C":
            continue
        if rules.street_squares == 1:
            spots.append((q, -1))
            continue
        for q2 in ((q + 1) if col + 1 < SIZE else -1, (q + SIZE) if row + 1 < SIZE else -1):
            if q2 >= 0 and flat[q2] != "C":
                spots.append((q, q2))
    r[P_N_SPOTS] = len(spots)
    r[R_SPOTS : R_SPOTS + 2 * len(spots)] = np.array(spots, dtype=np.int64).ravel()
    house_squares = [q for q, ch in enumerate(flat) if ch != "."]
    r[P_N_HOUSE_SQ] = len(house_squares)
    r[R_HOUSE_SQ : R_HOUSE_SQ + len(house_squares)] = house_squares
    r[R_OWNER : R_OWNER + N_SQUARES] = -1
    r[R_VILLAGE : R_VILLAGE + MAX_PLAYERS] = -1
    t = rules.territory_size
    for seat, corner in enumerate(seat_corners(rules, players)):
        r[R_VILLAGE + seat] = CORNER_SQUARES[corner]
        rows = range(t) if corner in (0, 1) else range(SIZE - t, SIZE)
        cols = range(t) if corner in (0, 3) else range(SIZE - t, SIZE)
        for row in rows:
            for col in cols:
                r[R_OWNER + row * SIZE + col] = seat
    return r
