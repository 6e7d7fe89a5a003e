"""Throughput of one game under several versions of the code, measured in one process, batch
by batch in turn (docs/performance.md, "Reproduce"): the way to compare versions whose
difference is smaller than the machine's noise between processes.

    .venv/bin/python tools/ab_bench.py GAME PLAYERS GAMES ROUNDS REV_OR_TREE...
    .venv/bin/python tools/ab_bench.py sunken-treasure 2 20000 40 facb8c3 HEAD

Each version (a git revision of this repository, or the path of a checkout) has its
`simcore` package copied under a name of its own (`simcore` renamed in its sources) into a
temporary directory, so all of them are imported side by side (each compiles once, into a
numba cache of its own under the same directory: a minute or two per version for the larger
games). Every round plays GAMES games (`play_batch`, one thread, the game's default players,
a new seed per round) with each version in turn, the order reversed every other round; the
figures are games per CPU-second (time.process_time). It prints each version's median and
best round and the median over the rounds of its ratio to the first version's round (paired
rounds: a slow spell of the machine falls on all versions alike).
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def copy_version(ref: str, dest: Path, name: str) -> None:
    """The `simcore` package of revision or checkout `ref` as package `name` in dest."""
    target = dest / name
    if Path(ref).is_dir():
        shutil.copytree(Path(ref) / "simcore", target)
    else:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "simcore"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
        (dest / "simcore").rename(target)
    pattern = re.compile(r"\bsimcore\b")
    for path in target.rglob("*.py"):
        path.write_text(pattern.sub(name, path.read_text()))


def registry(name: str):
    """The registry module of a copied version: simcore.frame.registry in the layered tree,
    simcore.games in the flat tree before it."""
    try:
        return importlib.import_module(name + ".frame.registry")
    except ModuleNotFoundError:
        return importlib.import_module(name + ".games")


def main(argv: list[str]) -> int:
    if len(argv) < 6 or not all(a.isdigit() for a in argv[1:4]):
        print("usage: tools/ab_bench.py GAME PLAYERS GAMES ROUNDS REV_OR_TREE REV_OR_TREE...")
        return 2
    game, players, games, rounds = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    refs = argv[4:]
    work = Path(tempfile.mkdtemp(prefix="ab-bench-"))
    os.environ["NUMBA_CACHE_DIR"] = str(work / "numba")
    os.environ["NUMBA_NUM_THREADS"] = "1"
    names = [f"simcore_v{k}" for k in range(len(refs))]
    for ref, name in zip(refs, names):
        copy_version(ref, work, name)
    sys.path.insert(0, str(work))
    import numpy as np

    setups = {}
    for name in names:
        t = time.time()
        spec = registry(name).get_game(game)
        rules = spec.rules_cls()
        r = spec.pack(rules, players)
        ids, w = spec.policy_arrays(spec.resolve_seats(spec.parse_policies(None, players), rules))
        rows = np.zeros((games, len(spec.columns)), dtype=np.int64)
        spec.play_batch(r, ids, w, np.uint64(1), np.int64(0), False, False, rows)  # compiles
        setups[name] = (spec, r, ids, w, rows)
        print(f"{name} = {refs[names.index(name)]} (ready in {time.time() - t:.0f} s)")
    rates: dict[str, list[float]] = {name: [] for name in names}
    for k in range(rounds):
        for name in names if k % 2 == 0 else names[::-1]:
            spec, r, ids, w, rows = setups[name]
            t = time.process_time()
            spec.play_batch(r, ids, w, np.uint64(100 + k), np.int64(0), False, False, rows)
            rates[name].append(games / (time.process_time() - t))
    first = rates[names[0]]
    print(f"{game}, {players} players, {rounds} rounds of {games} games (games per CPU-second)")
    for ref, name in zip(refs, names):
        paired = statistics.median(a / b for a, b in zip(rates[name], first))
        print(
            f"{ref:>20}  median {statistics.median(rates[name]):>11,.0f}  "
            f"best {max(rates[name]):>11,.0f}  paired ratio {paired:.3f}"
        )
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
