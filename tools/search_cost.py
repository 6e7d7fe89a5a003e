"""The `search` player's strength for its cost, settings side by side in one process (issue
#37; docs/performance.md, "The search player: strength for cost"):

    .venv/bin/python tools/search_cost.py GAME PLAYERS GAMES ROUNDS REF SEARCH...
    .venv/bin/python tools/search_cost.py sunken-city 3 1500 5 balanced \
        search,balanced,balanced search:budget=32,balanced,balanced

REF is the reference lineup's player (every seat); each SEARCH is a lineup (as --policy gives
it) whose first entry is the measured seat. Every round plays the next GAMES / ROUNDS games of
seed 7 with each lineup in turn (the order reversed every other round, the REF lineup timed on
GAMES / ROUNDS * 20 games), seats rotated, one thread; CPU time by time.process_time. Prints
per lineup: the first entry's outright win rate (Wilson 95% interval), its Elo equivalent
against the fair share, CPU ms a game and the ratio to the REF lineup's ms a game.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("NUMBA_NUM_THREADS", "1")


def main(argv: list[str]) -> int:
    if len(argv) < 6:
        print(__doc__)
        return 2
    import pandas as pd

    from simcore.frame.registry import get_game
    from simcore.studies.bench import curve_point, play_rotated

    game, players, games, rounds, ref = argv[0], int(argv[1]), int(argv[2]), int(argv[3]), argv[4]
    lineups = argv[5:]
    spec = get_game(game)
    per = games // rounds
    ref_line = ",".join([ref] * players)
    for lineup in [ref_line, *lineups]:  # compile
        play_rotated(spec, players, lineup, 2, 1)
    tot = {lu: {"games": 0, "cpu_s": 0.0, "wins": 0, "shared": 0} for lu in lineups}
    ref_tot = {"games": 0, "cpu_s": 0.0}
    for k in range(rounds):
        order = lineups if k % 2 == 0 else lineups[::-1]
        res = play_rotated(spec, players, ref_line, per * 20, 8, per * 20 * k)
        ref_tot["games"] += res["games"]
        ref_tot["cpu_s"] += res["cpu_s"]
        for lu in order:
            res = play_rotated(spec, players, lu, per, 7, per * k)
            for key in tot[lu]:
                tot[lu][key] += res[key]
        print(f"round {k + 1}/{rounds} done", file=sys.stderr, flush=True)
    ref_ms = ref_tot["cpu_s"] / ref_tot["games"] * 1e3
    print(f"{game}, {players} players, reference {ref_line}: {ref_ms:.4f} ms/game CPU")
    rows = []
    for lu in lineups:
        pt = curve_point(tot[lu]["wins"], tot[lu]["games"], tot[lu]["shared"], players)
        ms = tot[lu]["cpu_s"] / tot[lu]["games"] * 1e3
        low, high = 100 * pt["ci_low"], 100 * pt["ci_high"]
        rows.append((lu, tot[lu]["games"], 100 * pt["win_rate"], low, high, pt["elo"], ms))
    table = pd.DataFrame(rows, columns=["lineup", "games", "win%", "low", "high", "Elo", "ms"])
    table["x ref"] = table["ms"] / ref_ms
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
