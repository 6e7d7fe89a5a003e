"""What the Sunken City route search costs, by the number of key houses it searches over
(docs/performance.md, "Why Sunken City stays below 20,000 games/s").

    .venv/bin/python tools/route_search.py [GAMES] [REPS]

It plays GAMES (default 60) games of three `balanced` players, and before every turn sets up
what the card choice's route search reads (the distance fields, the threat table, the key
houses and the budget: the largest movement of the hand, plus the chip's points), as
choose_card does. Then it times plan_route on those positions, grouped by the number of key
houses (0-6): each group is searched REPS (default 20) times in a compiled loop, the fastest
of 10 such runs counts. It also counts the nodes of a complete search (every order of the
key houses within the budget, no cap), which is what the player's search would expand
without its effort cap (`search`, 500). The positions, so the figures, are the same on every
run; only the times depend on the machine.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

from simcore import get_game
from simcore.games.sunken_city import play
from simcore.games.sunken_city import state as S
from simcore.games.sunken_city.engine_moves import house_side_count
from simcore.games.sunken_city.players import scratch as X
from simcore.games.sunken_city.players.fields import distance_fields, threat_table
from simcore.games.sunken_city.players.routes import MAX_KEYS, key_houses, plan_route
from simcore.games.sunken_city.players.turn import last_turn_chance, urgency
from simcore.games.sunken_city.rules import P_CHIPS, P_N_CARDS, R_CARDS, SunkenCityRules, pack


def capture(games: int):
    """The card choice's route searches of `games` games: states, scratches, budgets, keys."""
    spec = get_game("sunken-city")
    r = pack(SunkenCityRules(), 3)
    ids, w = spec.policy_arrays(spec.parse_policies("balanced", 3))
    row = np.zeros(len(spec.columns), np.int64)
    out = {"s": [], "x": [], "xf": [], "budget": [], "k": [], "seat": []}
    for g in range(games):
        tr = S.TRACE.new(400, True)
        play.play_game(r, ids, w, np.uint64(11), np.uint64(g), False, False, tr, row)
        for snap in S.TRACE.snapshots(tr):
            s = snap.astype(np.int64)
            if s[S.S_GAME_OVER]:
                continue
            seat = int(s[S.S_SEAT])
            x = X.new_scratch()
            xf = X.new_fscratch()
            xf[X.XF_URGENCY] = urgency(s, r)
            xf[X.XF_URGENCY + 1] = last_turn_chance(s, r, seat)
            threat_table(s, r, seat, xf)
            distance_fields(s, r, seat, x)
            top = 0
            for c in range(r[P_N_CARDS]):
                if s[S.O_HAND + seat] >> c & 1:
                    top = max(top, int(r[R_CARDS + 3 * c + 1]))
            if r[P_CHIPS] == 1 and s[S.O_CHIPS + seat] > 0:
                top += int(house_side_count(s, seat))
            k = key_houses(s, r, seat, w[0], x, xf)
            for key, v in zip(out, (s, x, xf, min(top, 40), k, seat)):
                out[key].append(v)
    return r, w[0], {key: np.array(v) for key, v in out.items()}


def complete_nodes(x, k: int, budget: int) -> int:
    """Nodes of a complete route search: every order of key houses within the budget."""
    ka = [int(x[X.X_ADVENTURER_TO_KEY_DIST + j]) for j in range(k)]
    kd = [[int(x[X.X_KEY_TO_KEY_DIST + 12 * a + b]) for b in range(k)] for a in range(k)]

    def count(node, left, mask):
        n = 0
        for j in range(k):
            d = ka[j] if node < 0 else kd[node][j]
            if not mask >> j & 1 and d <= left:
                n += 1 + count(j, left - d, mask | 1 << j)
        return n

    return count(-1, budget, 0)


@njit
def _search_all(s, x, xf, budget, k, seat, r, w, reps, idx):
    total = 0.0
    for _ in range(reps):
        for i in idx:
            total += plan_route(
                s[i], r, seat[i], w, budget[i], x[i], xf[i], X.XF_BEST_VALUE_BY_POINTS, k[i]
            )
    return total


def main(games: int = 60, reps: int = 20) -> list[tuple]:
    r, w, d = capture(games)
    rows = []
    for k in range(MAX_KEYS + 1):
        idx = np.nonzero(d["k"] == k)[0]
        if len(idx) == 0:
            continue
        args = (d["s"], d["x"], d["xf"], d["budget"], d["k"], d["seat"], r, w)
        _search_all(*args, 1, idx)
        best = min(
            (lambda t: (_search_all(*args, reps, idx), time.perf_counter() - t)[1])(
                time.perf_counter()
            )
            for _ in range(10)
        )
        ns = best / reps / len(idx) * 1e9
        nodes = [complete_nodes(d["x"][i], k, int(d["budget"][i])) for i in idx]
        capped = sum(n > 500 for n in nodes)
        rows.append((k, len(idx), ns, ns * len(idx), float(np.mean(nodes)), capped))
    total = sum(row[3] for row in rows)
    print(f"{len(d['k'])} card-choice route searches of {games} games (3 balanced players)")
    print("keys  searches  ns a search  share of the time  nodes (complete)  above 500")
    for k, n, ns, t, nodes, capped in rows:
        print(f"{k:>4}  {n:>8}  {ns:>11,.0f}  {t / total:>17.1%}  {nodes:>16.1f}  {capped:>9}")
    return rows


if __name__ == "__main__":
    argv = [int(a) for a in sys.argv[1:3]]
    main(*argv)
