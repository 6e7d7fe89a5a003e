"""Static tables of the Sumeria board, built once at import, and the trade-route map files.

The board (seed 002, "Game Materials"): 8 city-states, each with one city, 3 towns and 3
villages. Location index = 7 * state + slot, slot 0 the city, 1-3 the towns, 4-6 the villages;
states are 0-based here and named 1-8 in files, traces and docs. The routes are data: a map
file in ``maps/`` (one route per line, ``1C 1T1``); the default is the reconstruction of
GAME-DATA.md, ``ring`` and ``cross`` are alternative layouts.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

N_STATES = 8
LOCS_PER_STATE = 7  # 1 city, 3 towns, 3 villages
N_LOCS = N_STATES * LOCS_PER_STATE
MAX_DEG = 6  # most routes one location may have (map files are checked against it)
MAX_ROUTES = N_LOCS * MAX_DEG // 2
N_TYPES = 4  # influence tile types
TYPE_NAMES = ("economy", "military", "political", "religion")

# Location kinds, in the rulebook's order of importance ("Cities are more important than
# towns, which are themselves more important than villages").
CITY, TOWN, VILLAGE = 0, 1, 2
KIND_LETTERS = "CTV"

MAPS_DIR = Path(__file__).parent / "maps"


def _make_loc_tables() -> tuple[np.ndarray, np.ndarray]:
    """int64[56] state of each location, int64[56] its kind (CITY, TOWN, VILLAGE)."""
    state = np.arange(N_LOCS, dtype=np.int64) // LOCS_PER_STATE
    slot = np.arange(N_LOCS, dtype=np.int64) % LOCS_PER_STATE
    kind = np.where(slot == 0, CITY, np.where(slot <= 3, TOWN, VILLAGE)).astype(np.int64)
    return state, kind


LOC_STATE, LOC_KIND = _make_loc_tables()


def loc_name(loc: int) -> str:
    """'3C', '3T2', '3V1': city-state 1-8, kind letter, number of the town / village."""
    st, slot = divmod(int(loc), LOCS_PER_STATE)
    if slot == 0:
        return f"{st + 1}C"
    if slot <= 3:
        return f"{st + 1}T{slot}"
    return f"{st + 1}V{slot - 3}"


NAME_TO_LOC = {loc_name(q): q for q in range(N_LOCS)}


def parse_loc(name: str) -> int:
    """The location index of a name like '3T2' (ValueError when unknown)."""
    key = name.strip().upper()
    if key not in NAME_TO_LOC:
        raise ValueError(f"unknown location '{name}' (write e.g. 3C, 3T1, 3V2)")
    return NAME_TO_LOC[key]


def map_names() -> list[str]:
    """The maps shipped with the package (file names without .txt)."""
    return sorted(p.stem for p in MAPS_DIR.glob("*.txt"))


def map_path(name: str) -> Path:
    """A shipped map by name, or a path to a map file."""
    p = MAPS_DIR / f"{name}.txt"
    return p if p.is_file() else Path(name)


@functools.cache
def load_map(name: str) -> tuple[tuple[int, int], ...]:
    """The routes of a map as (location, location) pairs; ValueError with one clear sentence
    for a missing file, an unknown location, a loop, a repeated route or too many routes at
    one location."""
    p = map_path(name)
    if not p.is_file():
        raise ValueError(
            f"map '{name}' is neither a shipped map ({', '.join(map_names())}) nor a file"
        )
    routes: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    deg = [0] * N_LOCS
    for n, line in enumerate(p.read_text().splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        parts = text.split()
        if len(parts) != 2:
            raise ValueError(f"map '{name}' line {n}: a route is two location names")
        try:
            a, b = parse_loc(parts[0]), parse_loc(parts[1])
        except ValueError as e:
            raise ValueError(f"map '{name}' line {n}: {e}") from None
        key = (min(a, b), max(a, b))
        if a == b or key in seen:
            raise ValueError(f"map '{name}' line {n}: a loop or a repeated route")
        seen.add(key)
        deg[a] += 1
        deg[b] += 1
        if max(deg[a], deg[b]) > MAX_DEG:
            raise ValueError(f"map '{name}' line {n}: more than {MAX_DEG} routes at a location")
        routes.append((a, b))
    if not routes:
        raise ValueError(f"map '{name}' has no routes")
    return tuple(routes)


def adjacency(routes) -> tuple[np.ndarray, np.ndarray]:
    """int64[56, MAX_DEG] neighbours of each location in file order (-1 padding), int64[56]
    degrees."""
    adj = np.full((N_LOCS, MAX_DEG), -1, dtype=np.int64)
    deg = np.zeros(N_LOCS, dtype=np.int64)
    for a, b in routes:
        adj[a, deg[a]] = b
        deg[a] += 1
        adj[b, deg[b]] = a
        deg[b] += 1
    return adj, deg


# Straight runs for the move search (engine.move_targets). Over an occupied location a trader
# goes on along every route but the one it came by: at a location with 2 routes straight on.
# A run is what follows one directed route: the locations met while each has exactly 2 routes,
# ending at the first with another number of routes (or after RUN_MAX locations); the search
# stops at the first empty location of a run, or goes on along the routes leaving its last.
RUN_MAX = 8  # locations per run (longer stretches continue in the next run)
N_DIRECTED = N_LOCS * MAX_DEG  # directed route (q, j): q * MAX_DEG + j


def straight_runs(adj: np.ndarray, deg: np.ndarray):
    """Per directed route e = q * MAX_DEG + j (j < deg[q]): run length int64[N_DIRECTED], run
    locations int64[N_DIRECTED] (6 bits each, the first in the low bits), read masks
    int64[N_DIRECTED, RUN_MAX] (bits of the run's locations up to each one), the number of
    routes leaving the last location int64[N_DIRECTED] and those routes
    int64[N_DIRECTED, MAX_DEG] (directed route ids, in route order; all but the one the run
    came by)."""
    length = np.zeros(N_DIRECTED, dtype=np.int64)
    nodes = np.zeros(N_DIRECTED, dtype=np.int64)
    pre = np.zeros((N_DIRECTED, RUN_MAX), dtype=np.int64)
    nsucc = np.zeros(N_DIRECTED, dtype=np.int64)
    succ = np.full((N_DIRECTED, MAX_DEG), -1, dtype=np.int64)
    for q in range(N_LOCS):
        for j in range(int(deg[q])):
            e = q * MAX_DEG + j
            prev, cur = q, int(adj[q, j])
            mask = 0
            run: list[int] = []
            while True:
                run.append(cur)
                mask |= 1 << cur
                pre[e, len(run) - 1] = mask
                if len(run) == RUN_MAX or deg[cur] != 2:
                    break
                nxt = int(adj[cur, 0]) if adj[cur, 0] != prev else int(adj[cur, 1])
                prev, cur = cur, nxt
            length[e] = len(run)
            nodes[e] = sum(v << (6 * i) for i, v in enumerate(run))
            out = [cur * MAX_DEG + k for k in range(int(deg[cur])) if adj[cur, k] != prev]
            nsucc[e] = len(out)
            succ[e, : len(out)] = out
    return length, nodes, pre, nsucc, succ
