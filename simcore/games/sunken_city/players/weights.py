"""The heuristic players' weights: the index of each weight in the compiled weight vector (W_*),
their names in that order (WEIGHT_NAMES), the default value of each (DEFAULT_WEIGHTS), and
`weights(**changes)`, which gives a full weight dict in vector order from the defaults (or the
hand-set weights, HAND_SET_WEIGHTS) and the changes named by keyword. A new weight is a new W_*
index, name and default: the presets, which name only what they change, keep their values.
docs/policies-sunken-city.md explains each."""

from __future__ import annotations

W_GREED = 0  # value of recovering treasure (per treasure point, 10 + face value)
W_BANK = 1  # value of bringing carried treasure home
W_CAUTION = 2  # fear for carried treasure within the spirit's likely reach
W_AGGRESSION = 3  # value of sending opponents home with what they carry, and cutting routes
W_BUILD = 4  # value of extending the own routes toward needed houses
W_BLOCK = 5  # reluctance to put needed houses or streets within opponents' reach
W_CHIP = 6  # extra value a chip must bring before it is spent
W_CENTRE = 7  # preference for raising the centre house when the chest is still needed
W_NOISE = 8  # random spread of the card choice, in treasures (0: deterministic, no draw)
W_SEARCH = 9  # orders of key houses a route search may try (its effort; below 1: none)
W_KEYS = 10  # key houses a route search considers, the most promising first (0..MAX_KEYS)

# name -> index in the weight vector
WEIGHT_INDEX = {
    "greed": W_GREED,
    "bank": W_BANK,
    "caution": W_CAUTION,
    "aggression": W_AGGRESSION,
    "build": W_BUILD,
    "block": W_BLOCK,
    "chip": W_CHIP,
    "centre": W_CENTRE,
    "noise": W_NOISE,
    "search": W_SEARCH,
    "keys": W_KEYS,
}
WEIGHT_NAMES = tuple(sorted(WEIGHT_INDEX, key=WEIGHT_INDEX.__getitem__))
assert [WEIGHT_INDEX[n] for n in WEIGHT_NAMES] == list(range(len(WEIGHT_NAMES)))

# The default of every weight: the `balanced` player's, found by `balance tune-players
# sunken-city --players 3` (issue #27, trial 179 of 200; docs/tuning.md) and written as the
# tuning wrote them. `search` is the route search's effort (orders of key houses tried per
# search), `keys` its breadth (key houses it considers).
DEFAULT_WEIGHTS = {
    "greed": 12.9225,
    "bank": 0.0352718,
    "caution": 3.02641,
    "aggression": 1.50944,
    "build": 0.106854,
    "block": 0.00507891,
    "chip": 0.00322681,
    "centre": 1.57929,
    "noise": 0.00123534,
    "search": 1012.72,
    "keys": 6.0,
}

# The hand-set weights `balanced` had before issue #27: the base of the other presets (which
# name only what they change from it) and of `balanced` under the advanced game.
HAND_SET_WEIGHTS = {
    "greed": 5.0,
    "bank": 0.3,
    "caution": 0.2,
    "aggression": 1.0,
    "build": 1.2,
    "block": 0.0,
    "chip": 2.0,
    "centre": 1.5,
    "noise": 0.0,
    "search": 500.0,
    "keys": 6.0,
}
assert set(HAND_SET_WEIGHTS) == set(WEIGHT_NAMES)
assert set(DEFAULT_WEIGHTS) == set(WEIGHT_NAMES)

# The values each weight may take, (lo, hi, whole): the value weights 0 to 100 (a negative
# value would reward losing treasure), noise 0 to 10 treasures, search 0 (no route search) to
# 1e9 (the kernel's cap), keys a whole number 0 to MAX_KEYS (routes.MAX_KEYS, checked there).
MAX_KEYS_WEIGHT = 6
WEIGHT_BOUNDS: dict[str, tuple[float, float, bool]] = {
    **{n: (0.0, 100.0, False) for n in WEIGHT_NAMES if n not in ("noise", "search", "keys")},
    "noise": (0.0, 10.0, False),
    "search": (0.0, 1e9, False),
    "keys": (0.0, float(MAX_KEYS_WEIGHT), True),
}
assert set(WEIGHT_BOUNDS) == set(WEIGHT_NAMES)


def weights(base: dict[str, float] = DEFAULT_WEIGHTS, **changes: float) -> dict[str, float]:
    """The `base` weights (the defaults unless given) with `changes` applied, in weight-vector
    order (WEIGHT_NAMES)."""
    unknown = set(changes) - set(DEFAULT_WEIGHTS)
    if unknown:
        raise KeyError(f"unknown weights: {', '.join(sorted(unknown))}")
    return {name: float(changes.get(name, base[name])) for name in WEIGHT_NAMES}
