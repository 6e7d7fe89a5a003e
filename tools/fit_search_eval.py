"""How much a Sunken City position says about who wins: an evaluation fitted by regression to
the base player's games (issue #37; docs/performance.md, "The search player: strength for
cost").

    .venv/bin/python tools/fit_search_eval.py [GAMES]

Plays GAMES games (default 20,000) of the default preset in every seat for 2, 3 and 4 players
(basic game, default rules, seed 37, seats rotated), records every seat's features (FEATURES)
at the start of every turn, and fits, per player count, a conditional logit: the chance that
seat k wins is exp(b . f_k) over the seats' sum, fitted by maximum likelihood to the share of
the win each seat took at the end of its game (scipy's L-BFGS). The first half of the games
fits, the second half is held out. Prints the coefficients, and per player count and per three
turns of the game the held-out log loss of the fitted evaluation, of the hand-made
`search_eval` (players/search.py: exp(banked + 0.6 carried), normalised) and of the fair share
1/players, and how often the fitted evaluation's favourite won: what an evaluation of a
simulation cut at a horizon can know, turn by turn.
"""

from __future__ import annotations

import os
import sys

import numpy as np

os.environ.setdefault("NUMBA_NUM_THREADS", "2")

SEED = 37
FEATURES = (
    "banked",  # treasures banked
    "banked_value",  # their values / 12
    "carried",  # treasures carried (turned, not yet banked)
    "carried_far",  # carried x the adventurer's Manhattan distance to its village / 8
    "at_home",  # 1 when the adventurer is in its village
    "hand_moves",  # movement points of the cards in hand / 29
    "chips",  # water spirit chips held
    "order",  # turns before the seat plays, / players
    "banked_late",  # banked x min(1, round / 8)
    "carried_late",  # carried x min(1, round / 8)
    "house_side",  # treasures not yet turned
    "hand_cards",  # cards in hand / 6
)


def _kernels():
    """The compiled feature kernel and data generator (numba is imported here)."""
    import numba

    from simcore.frame.rng import stream_for
    from simcore.frame.seats import seat_policies
    from simcore.frame.tracebuf import T_HEADER
    from simcore.games.sunken_city import play
    from simcore.games.sunken_city import rules as R
    from simcore.games.sunken_city import state as S
    from simcore.games.sunken_city.engine import scores, treasure, treasure_value, winners
    from simcore.games.sunken_city.players.common import manhattan, position_square

    new_scratch = play.DRIVER.new_scratch
    play_turn = play.play_turn
    setup = play.setup

    @numba.njit
    def features(s, r, k, out):
        n = r[R.P_PLAYERS]
        banked = bval = carried = house = 0.0
        for t in range(R.N_TREASURES):
            st = treasure(s, k, t)
            if st == S.BANKED:
                banked += 1.0
                bval += treasure_value(t)
            elif st == S.CARRIED:
                carried += 1.0
            elif st == S.HOUSE_SIDE:
                house += 1.0
        a = s[S.O_ADVENTURER_SLOT + k]
        far = 0.0
        if a != S.VILLAGE:
            far = manhattan(position_square(s, r, k), r[R.R_VILLAGE + k]) / 8.0
        moves = cards = 0.0
        for c in range(r[R.P_N_CARDS]):
            if s[S.O_HAND + k] & (1 << c):
                moves += r[R.R_CARDS + 3 * c + 1]
                cards += 1.0
        late = min(1.0, s[S.S_ROUND] / 8.0)
        out[0] = banked
        out[1] = bval / 12.0
        out[2] = carried
        out[3] = carried * far
        out[4] = 1.0 if a == S.VILLAGE else 0.0
        out[5] = moves / 29.0
        out[6] = s[S.O_CHIPS + k]
        out[7] = ((k - s[S.S_SEAT]) % n) / n
        out[8] = banked * late
        out[9] = carried * late
        out[10] = house
        out[11] = cards / 6.0

    @numba.njit(parallel=True)
    def generate(r, pol_ids, weights, seed, n, per_game, feats, share, tag):
        """Games 0..n-1: every turn's start (at most per_game a game) into feats[m, seat, :],
        the final share of the win of each seat into share[m, seat], tag[m] = (turn, game),
        turn -1 for an unused slot."""
        players = r[0]
        for i in numba.prange(n):
            s, x, xf, tab, rng, pols, wts, policy_idx, score, tb = new_scratch(r, weights.shape[1])
            tr = np.zeros(T_HEADER, dtype=np.int32)
            stream_for(np.uint64(seed), np.uint64(i), rng)
            seat_policies(players, i, True, pol_ids, weights, pols, wts, policy_idx)
            setup(s, r, tr, rng)
            m = i * per_game
            t = 0
            while s[S.S_GAME_OVER] == 0 and t < per_game:
                seat = s[S.S_SEAT]
                for k in range(players):
                    features(s, r, k, feats[m + t, k])
                tag[m + t, 0] = t
                tag[m + t, 1] = i
                t += 1
                if play_turn(s, r, tr, seat, pols[seat], wts, rng, False, x, xf, tab) != 0:
                    break
            scores(s, r, score, tb)
            _, mask = winners(s, r, score, tb)
            nw = 0
            for k in range(players):
                nw += (mask >> k) & 1
            for j in range(t):
                for k in range(players):
                    share[m + j, k] = ((mask >> k) & 1) / max(nw, 1)
            for j in range(t, per_game):
                tag[m + j, 0] = -1

    return generate


def positions(players: int, games: int):
    """(features [m, players, F], share [m, players], turn [m], game [m]) of every turn's
    start of games 0..games-1 of the default preset in every seat."""
    from simcore.frame.registry import get_game

    spec = get_game("sunken-city")
    rules = spec.rules_cls()
    seats = spec.resolve_seats(spec.parse_policies(None, players), rules)
    ids, w = spec.policy_arrays(seats)
    r = spec.pack(rules, players)
    per = 60
    feats = np.zeros((games * per, 4, len(FEATURES)))
    share = np.zeros((games * per, 4))
    tag = np.zeros((games * per, 2), dtype=np.int64)
    _kernels()(r, ids, w, np.uint64(SEED), games, per, feats, share, tag)
    keep = tag[:, 0] >= 0
    return feats[keep, :players], share[keep, :players], tag[keep, 0], tag[keep, 1]


def log_loss(u: np.ndarray, share: np.ndarray) -> float:
    """Mean over positions of -sum_k share_k log p_k, p = softmax(u) over the seats."""
    u = u - u.max(axis=1, keepdims=True)
    logp = u - np.log(np.exp(u).sum(axis=1, keepdims=True))
    return float(-(share * logp).sum(axis=1).mean())


def fit(feats: np.ndarray, share: np.ndarray) -> np.ndarray:
    """The conditional logit's coefficients by maximum likelihood (L-BFGS, exact gradient)."""
    from scipy.optimize import minimize

    def f(b):
        u = feats @ b
        u = u - u.max(axis=1, keepdims=True)
        logp = u - np.log(np.exp(u).sum(axis=1, keepdims=True))
        loss = -(share * logp).sum(axis=1).mean()
        # d loss / d b = mean over positions of sum_k (p_k - share_k) f_k
        grad = np.einsum("mk,mkf->f", np.exp(logp) - share, feats) / len(feats)
        return loss, grad

    return minimize(f, np.zeros(feats.shape[2]), jac=True, method="L-BFGS-B").x


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 20_000
    if games < 2:
        print("GAMES must be at least 2", file=sys.stderr)
        return 2
    for players in (2, 3, 4):
        feats, share, turn, game = positions(players, games)
        train = game < games // 2
        b = fit(feats[train], share[train])
        print(
            f"{players} players: {int(train.sum()):,} positions fitted, "
            f"{int((~train).sum()):,} held out"
        )
        print("  coefficients: " + ", ".join(f"{n} {v:+.3f}" for n, v in zip(FEATURES, b)))
        print("  turns   positions  fitted  hand-made  fair   favourite won")
        for lo in range(0, int(turn.max()) + 1, 3):
            m = ~train & (turn >= lo) & (turn < lo + 3)
            if m.sum() < 200:
                continue
            u = feats[m] @ b
            hand = feats[m][:, :, 0] + 0.6 * feats[m][:, :, 2]
            won = share[m][np.arange(int(m.sum())), u.argmax(axis=1)] > 0
            print(
                f"  {lo:>2}-{lo + 2:<2}  {int(m.sum()):>9,}  {log_loss(u, share[m]):.4f}  "
                f"{log_loss(hand, share[m]):.4f}     {log_loss(0 * u, share[m]):.4f}  "
                f"{100 * won.mean():5.1f}%"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
