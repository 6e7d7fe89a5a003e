"""Secrets of the Sea rules as data: every number a designer may vary, named variants, packing.

Sources: seed 003 (the rulebook) and ../shared/GAME-DATA.md ("Secrets of the Sea") for what the
rulebook leaves out: the tile mix, the wreck values and the bonus thresholds are
reconstructions, kept here as data (``--set light_tiles=...``); docs/rules-secrets-of-the-sea.md
lists which number rests on what.

Tile lists are text: comma-separated ``kind=v/v/...`` groups, one tile per value. Kinds:
``shell amphora barrel gold chest`` (the five treasure types), ``seagrass``, ``exchange``,
``monster`` (the value is the number of pips), and caves ``cave-<front>`` whose hidden front is
one of the other kinds (``cave-seagrass=0``, ``cave-chest=2``, ``cave-monster=4``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from simcore.base.rulesbase import POINTS_WORDS, RulesBase, RulesError, in_range, variant_registry
from simcore.games.secrets_of_the_sea.board import COLS, N_SPACES, PER_REGION, ROWS

MAX_PLAYERS = 4
N_DICE = 2
MAX_FACES = 12
MAX_WRECK = 12
X = 0  # die face value of the X: "you cannot dive with this die"

# Tile kinds (what the lamp shows). Caves show CAVE; their front is one of the others.
SHELL, AMPHORA, BARREL, GOLD, CHEST, SEAGRASS, EXCHANGE, MONSTER, CAVE, WRECK = range(10)
N_TYPES = 5  # treasure types 0..4
KIND_NAMES = (
    "shell",
    "amphora",
    "barrel",
    "gold",
    "chest",
    "seagrass",
    "exchange",
    "monster",
    "cave",
    "wreck",
)
# Bonus tiles: one per treasure type, then the monster bonus, then the seagrass bonus.
BONUS_MONSTER = N_TYPES
BONUS_SEAGRASS = N_TYPES + 1
N_BONUS = 7
BONUS_NAMES = KIND_NAMES[:N_TYPES] + ("monster", "seagrass")

# Reconstruction (GAME-DATA.md, "Secrets of the Sea").
DEFAULT_LIGHT = (
    "shell=1/1/2,amphora=1/1/2,barrel=1/1/2,gold=1/1/2,chest=1/1/2,"
    "seagrass=0/0/0/0,exchange=2/2,monster=2/3,cave-seagrass=0,cave-chest=2"
)
# Dark monsters (GAME-DATA: "Monsters have at most 4 pips"): 3, 4, 4, 4 pips and a 4-pip cave
# monster. The withdrawn reconstruction (GAME-DATA before issue #23) had 4, 5, 5, 6 pips and a
# 6-pip cave monster: no 1-4 die beats 5 or 6 pips, so the dark region could never be emptied.
# It is kept as the `unbeatable-monsters` variant.
DEFAULT_MONSTERS = "monster=3/4/4/4,cave-monster=4"
UNBEATABLE_MONSTERS = "monster=4/5/5/6,cave-monster=6"
DEFAULT_DARK = (
    "shell=2/3/4,amphora=2/3/4,barrel=2/3/4,gold=2/3/4,chest=2/3/4,"
    f"seagrass=0/0,exchange=2/2,{DEFAULT_MONSTERS},cave-gold=4"
)
DEFAULT_WRECK = "shell=5,amphora=5,barrel=5,gold=5/6,chest=5/7"


def parse_tiles(text: str, key: str, allow_caves: bool = True) -> list[tuple[int, int, int]]:
    """'shell=1/1/2,cave-chest=2' -> [(lamp kind, front kind, value), ...] (one per tile)."""
    out: list[tuple[int, int, int]] = []
    for group in (g.strip() for g in text.split(",")):
        if not group:
            continue
        if "=" not in group:
            raise RulesError(f"{key}: '{group}' must be kind=value/value/...")
        name, _, vals = group.partition("=")
        name = name.strip()
        lamp = front = -1
        if name.startswith("cave-") and allow_caves:
            lamp = CAVE
            inner = name[5:]
            if inner in KIND_NAMES[: MONSTER + 1] and inner != "exchange":
                front = KIND_NAMES.index(inner)
        elif name in KIND_NAMES[: MONSTER + 1]:
            lamp = front = KIND_NAMES.index(name)
        if lamp < 0 or front < 0:
            raise RulesError(f"{key}: unknown tile kind '{name}'")
        for v in vals.split("/"):
            try:
                value = int(v)
            except ValueError:
                raise RulesError(f"{key}: '{v}' in '{group}' is not a whole number") from None
            if not 0 <= value <= 99:
                raise RulesError(f"{key}: tile values must be 0 to 99, not {value}")
            out.append((lamp, front, value))
    return out


SEAGRASS_WORDS = "needs {n} seagrass find{s} fewer for the seagrass bonus tile"


@dataclass(frozen=True)
class SecretsRules(RulesBase, game="secrets-of-the-sea", players=(2, MAX_PLAYERS)):
    """Every rule parameter of Secrets of the Sea (seed 003)."""

    light_tiles: str = DEFAULT_LIGHT
    """the 25 light-blue tiles (rows 1-5) as kind=v/v/... groups, one tile per value
    (reconstruction)"""
    dark_tiles: str = DEFAULT_DARK
    """the 25 dark-blue tiles (rows 6-10), same notation (reconstruction)"""
    wreck_tiles: str = DEFAULT_WRECK
    """the wreck tiles (treasure types only), face up at the wreck (reconstruction)"""
    bonus_thresholds: tuple[int, ...] = in_range((3, 3, 3, 3, 3, 2, 3), 1, 50)
    """tiles needed for each bonus: shell, amphora, barrel, gold, chest, monster (fights won),
    seagrass (reconstruction; seagrass 3 is the rulebook's)"""
    bonus_points: int = in_range(5, 0, 100)
    """points of each bonus tile (rulebook)"""
    die: tuple[int, ...] = in_range((1, 2, 3, 4, X, X), 0, ROWS + 1)
    """faces of each of the two dice; 0 is the X face (GAME-DATA: 1, 2, 3, 4, X, X)"""
    overshoot_to_wreck: bool = True
    """ruling: a move that would pass row 10 ends at the wreck; False: the wreck must be reached
    exactly (a die that would pass it cannot be chosen)"""
    empty_may_stop: bool = True
    """ruling: on an empty space the diver may stop with nothing; False: must dive deeper"""
    cave_monster_fights: bool = True
    """ruling: a monster found in a taken cave must be fought like any monster; False: the
    cave's tile is simply taken"""
    wreck_counts_for_bonus: bool = True
    """ruling: a wreck tile counts as a treasure of its type for the type's bonus"""
    max_turns: int = in_range(2000, 1, 100_000)
    """safety cap: the game ends after this many turns (end reason 'turn-limit')"""
    # the designer's additions (seat compensation, issue #38; docs/rules-secrets-of-the-sea.md)
    seat_points: tuple[int, ...] = in_range((), -50, 50)
    """compensation: points added to each seat's final score, seat 0 first, e.g. 0,0,2"""
    seat_seagrass: tuple[int, ...] = in_range((), 0, 49)
    """compensation: seagrass finds each seat needs fewer for the seagrass bonus tile (the
    rulebook's three), seat 0 first, e.g. 0,0,1 (seat 2 takes it on its second find)"""

    ADDITIONS = SEAT_FIELDS = ("seat_points", "seat_seagrass")
    SEAT_SEARCH = {"seat_points": 6, "seat_seagrass": 2}
    SEAT_WORDS = dict(seat_points=POINTS_WORDS, seat_seagrass=SEAGRASS_WORDS)

    # ----------------------------------------------------------------------------------
    def tiles(self) -> tuple[list, list, list]:
        """The parsed light, dark and wreck tiles: (lamp kind, front kind, value) each."""
        light = parse_tiles(self.light_tiles, "light_tiles")
        dark = parse_tiles(self.dark_tiles, "dark_tiles")
        wreck = parse_tiles(self.wreck_tiles, "wreck_tiles", allow_caves=False)
        return light, dark, wreck

    def check(self, players: int | None) -> None:
        """Raise RulesError with one clear sentence when a field is out of range."""
        light, dark, wreck = self.tiles()
        for name, ts in (("light_tiles", light), ("dark_tiles", dark)):
            if len(ts) != PER_REGION:
                raise RulesError(
                    f"{name} must list {PER_REGION} tiles (one per space), not {len(ts)}"
                )
        if not 1 <= len(wreck) <= MAX_WRECK:
            raise RulesError(f"wreck_tiles must list 1 to {MAX_WRECK} tiles")
        if any(f >= N_TYPES for _, f, _ in wreck):
            raise RulesError("wreck tiles must be treasure types (shell ... chest)")
        if len(self.bonus_thresholds) != N_BONUS or any(
            not 1 <= t <= 50 for t in self.bonus_thresholds
        ):
            raise RulesError("bonus_thresholds needs 7 numbers of 1 to 50")
        if not 1 <= len(self.die) <= MAX_FACES or any(
            not isinstance(f, int) or not 0 <= f <= ROWS + 1 for f in self.die
        ):
            raise RulesError(f"die needs 1 to {MAX_FACES} faces of 0 (X) to {ROWS + 1}")
        if all(f == X for f in self.die):
            raise RulesError("die needs at least one number face")
        finds = self.bonus_thresholds[BONUS_SEAGRASS]
        if any(v >= finds for v in self.seat_seagrass):
            raise RulesError(
                f"seat_seagrass of {max(self.seat_seagrass)} would give the seagrass bonus "
                f"without a find (it needs {finds}): give at most {finds - 1}"
            )


# ---------------------------------------------------------------------------------------
# Named variants, by the fields they set or a function of the rules; they compose
# ("exact-wreck+must-dive").
VARIANTS = variant_registry("the rulebook with the GAME-DATA reconstruction (no change)")
VARIANTS.add("exact-wreck", "the wreck is reached only by an exact move", overshoot_to_wreck=False)
VARIANTS.add(
    "must-dive", "no stopping on an empty space: dive deeper or bust", empty_may_stop=False
)
VARIANTS.add(
    "cave-monsters-free",
    "a monster found in a taken cave is kept without a fight",
    cave_monster_fights=False,
)


@VARIANTS.register(
    "unbeatable-monsters",
    "the withdrawn reconstruction: dark monsters of 4, 5, 5, 6 pips and a 6-pip cave monster "
    "(no 1-4 die beats 5 or 6 pips, so the dark tiles never run out)",
)
def _unbeatable(r: SecretsRules) -> SecretsRules:
    if DEFAULT_MONSTERS not in r.dark_tiles:
        raise RulesError(
            "unbeatable-monsters needs the default dark monsters "
            f"'{DEFAULT_MONSTERS}' in dark_tiles"
        )
    return dataclasses.replace(
        r, dark_tiles=r.dark_tiles.replace(DEFAULT_MONSTERS, UNBEATABLE_MONSTERS)
    )


# ---------------------------------------------------------------------------------------
# Component readings of the tile mix (issue #25; docs/component-readings.md): other plausible
# mixes that keep GAME-DATA's facts (25 light and 25 dark tiles, five treasure types, exchange
# tiles worth 2, caves hiding seagrass, a treasure or a monster, monsters of at most 4 pips).
TILE_MIX = "tile mix"


def _treasures(values: str) -> str:
    """'1/1/2' -> the five treasure types each with these values, as tile-list groups."""
    return ",".join(f"{k}={values}" for k in KIND_NAMES[:N_TYPES])


def _treasure_values_reading(name: str, light: str, dark: str, why: str, source: str) -> None:
    """A reading with the default's tiles but other values for each treasure type: `light`
    instead of 1/1/2 and `dark` instead of 2/3/4."""
    VARIANTS.add_reading(
        name,
        f"treasures {light} light, {dark} dark per type ({why})",
        TILE_MIX,
        source,
        light_tiles=DEFAULT_LIGHT.replace(_treasures("1/1/2"), _treasures(light)),
        dark_tiles=DEFAULT_DARK.replace(_treasures("2/3/4"), _treasures(dark)),
    )


_treasure_values_reading(
    "tiles-shallow-step",
    "1/2/2",
    "2/3/3",
    "a smaller step with depth",
    "the same kinds and numbers of tiles and the same treasure total (13 points per type, 65 in "
    "all); the values rise less steeply from light to dark water",
)
_treasure_values_reading(
    "tiles-rich-deep",
    "1/1/1",
    "2/4/4",
    "more value in the deep",
    "the same kinds and numbers of tiles and the same treasure total (13 points per type); more "
    "of the value lies in dark water (50 of the 65 points instead of 45), so diving deep pays "
    "more",
)
VARIANTS.add_reading(
    "tiles-more-monsters",
    "one seagrass per region becomes a monster (light 2/3/3, dark 3/3/4/4/4 pips)",
    TILE_MIX,
    "the same treasures; the share of hazards is not given, so one seagrass tile in each "
    "region is a monster (every monster still at most 4 pips; 5 seagrass tiles, one in a cave, "
    "remain for the rulebook's 3-seagrass bonus)",
    light_tiles=DEFAULT_LIGHT.replace("seagrass=0/0/0/0", "seagrass=0/0/0").replace(
        "monster=2/3", "monster=2/3/3"
    ),
    dark_tiles=DEFAULT_DARK.replace("seagrass=0/0", "seagrass=0").replace(
        DEFAULT_MONSTERS, "monster=3/3/4/4/4,cave-monster=4"
    ),
)


# ---------------------------------------------------------------------------------------
# Packing for the kernels: one flat int64 array r.
P_PLAYERS = 0
P_BONUS_POINTS = 1
P_OVERSHOOT = 2
P_EMPTY_STOP = 3
P_CAVE_FIGHT = 4
P_WRECK_BONUS = 5
P_MAX_TURNS = 6
P_DIE_N = 7  # faces on each die
P_N_WRECK = 8  # wreck tiles
P_N_TILES = 9  # board tiles (50) + wreck tiles
N_PARAMS = 16
N_TILES_MAX = N_SPACES + MAX_WRECK
R_DIE = N_PARAMS  # [12] die faces (first P_DIE_N used), 0 = X
R_BONUS_THR = R_DIE + MAX_FACES  # [7] tiles needed per bonus (BONUS_NAMES order)
R_LAMP = R_BONUS_THR + N_BONUS  # [62] per tile: what the lamp shows (SHELL..CAVE, WRECK)
R_FRONT = R_LAMP + N_TILES_MAX  # [62] per tile: its front kind (a cave's hidden content)
R_VALUE = R_FRONT + N_TILES_MAX  # [62] per tile: points (treasures, pips; seagrass 0)
N_THRESH = MAX_FACES  # thresholds of a draw table (draw_thresholds)
R_DIE_T = R_VALUE + N_TILES_MAX  # [12] draw thresholds of a die face (P_DIE_N faces)
R_COL_T = R_DIE_T + N_THRESH  # [12] draw thresholds of a buoy (COLS buoys)
R_SEAT_POINTS = R_COL_T + N_THRESH  # [4] points added to each seat's final score
# [4 x 7] tiles each seat needs for each bonus: bonus_thresholds, the seagrass bonus's less the
# seat's seat_seagrass (the seats beyond the player count: bonus_thresholds)
R_SEAT_THR = R_SEAT_POINTS + MAX_PLAYERS
RULES_SIZE = R_SEAT_THR + MAX_PLAYERS * N_BONUS
# Tile ids: 0..24 light tiles, 25..49 dark tiles (in the order of the rules text), then the
# wreck tiles from WRECK_BASE.
WRECK_BASE = N_SPACES


_INV53 = 1.0 / 9007199254740992.0  # 2**-53, as in simcore.frame.rng
NEVER = 1 << 62  # a threshold no 53-bit draw reaches


def draw_thresholds(n: int) -> np.ndarray:
    """int64[N_THRESH]: T[j-1] = the least 53-bit draw x for which simcore.frame.rng.rand_below(..,
    n)
    = int(float(x) * 2**-53 * n) is at least j (NEVER when no draw is), j = 1..N_THRESH.

    The result of rand_below grows with x (a product by a power of two is exact, a rounded
    product by n > 0 and the truncation never decrease), so rand_below(.., n) = the number of
    thresholds T[j] <= x: whole-number compares in place of the float conversion, the two
    multiplications and the truncation, the same numbers for the same draws. Found by
    bisection with the same float operations (Python floats are IEEE doubles, as in numba
    without fastmath)."""
    out = np.full(N_THRESH, NEVER, dtype=np.int64)
    top = (1 << 53) - 1
    for j in range(1, N_THRESH + 1):
        if int(float(top) * _INV53 * n) < j:
            break
        lo, hi = 0, top
        while lo < hi:
            mid = (lo + hi) // 2
            if int(float(mid) * _INV53 * n) >= j:
                hi = mid
            else:
                lo = mid + 1
        out[j - 1] = lo
    return out


def pack(rules: SecretsRules, players: int) -> np.ndarray:
    """Validate the rules for a player count and pack them into the flat kernel array."""
    r = rules.packed(players, RULES_SIZE)
    r[R_SEAT_POINTS : R_SEAT_POINTS + players] = rules.seat_values("seat_points", players)
    light, dark, wreck = rules.tiles()
    r[P_BONUS_POINTS] = rules.bonus_points
    r[P_OVERSHOOT] = int(rules.overshoot_to_wreck)
    r[P_EMPTY_STOP] = int(rules.empty_may_stop)
    r[P_CAVE_FIGHT] = int(rules.cave_monster_fights)
    r[P_WRECK_BONUS] = int(rules.wreck_counts_for_bonus)
    r[P_MAX_TURNS] = rules.max_turns
    r[P_DIE_N] = len(rules.die)
    r[R_DIE : R_DIE + len(rules.die)] = rules.die
    r[R_DIE_T : R_DIE_T + N_THRESH] = draw_thresholds(len(rules.die))
    r[R_COL_T : R_COL_T + N_THRESH] = draw_thresholds(COLS)
    r[R_BONUS_THR : R_BONUS_THR + N_BONUS] = rules.bonus_thresholds
    less = rules.seat_values("seat_seagrass", players) + (0,) * (MAX_PLAYERS - players)
    for seat, k in enumerate(less):
        o = R_SEAT_THR + seat * N_BONUS
        r[o : o + N_BONUS] = rules.bonus_thresholds
        r[o + BONUS_SEAGRASS] -= k
    r[P_N_WRECK] = len(wreck)
    r[P_N_TILES] = WRECK_BASE + len(wreck)
    r[R_LAMP : R_LAMP + N_TILES_MAX] = -1
    r[R_FRONT : R_FRONT + N_TILES_MAX] = -1
    for t, (lamp, front, value) in enumerate(light + dark):
        r[R_LAMP + t], r[R_FRONT + t], r[R_VALUE + t] = lamp, front, value
    for k, (_, front, value) in enumerate(wreck):
        t = WRECK_BASE + k
        r[R_LAMP + t], r[R_FRONT + t], r[R_VALUE + t] = WRECK, front, value
    return r
