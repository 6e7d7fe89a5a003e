"""The `search` player, for every game played turn by turn: Monte Carlo evaluation of candidate
turns, with sequential halving over the candidates and common random numbers.

At each of its turns the player asks the game for its candidate first decisions (the game's
`search_options` hook: in Sunken City the cards it may play), and estimates the value of each
by simulation: from a copy of the position, with the hidden information resampled (the game's
`search_hide` hook; the real random stream is never used), the candidate is played and the turn
completed by the base player (`search_play`), and the game is then played on by every seat's own
player (a `search` seat by its base player) to its end, or for `horizon` turns. A simulation's
value for the player is its share of the win (1 alone, 1/k in a k-way tie, 0 otherwise) plus a
small term for its score lead (docs/policies-<game>.md).

The budget (simulations per decision) is spent by sequential halving (Karnin, Koren and Somekh,
"Almost Optimal Exploration in Multi-Armed Bandits", 2013): ceil(log2 n) rounds, each sharing
its part of the budget equally among the candidates still in, and keeping the better half.
Simulation j of every candidate uses the same random stream (common random numbers), so two
candidates are compared on the same dice and draws and their difference is far less noisy than
their values. The chosen candidate is then played in the real game, completed by the base
player, on the real random stream.

`start` K: in rounds 0 to K - 1 (the game's S_ROUND, else turns / players) the seat plays as
its base player and draws nothing for the search; from round K it searches. A game's outcome is
mostly decided late, so the first rounds' simulations (the longest) decide least: Sunken City,
Sunken Treasure and Secrets of the Sea skip them by default (issue #37, docs/performance.md).

`stop` s > 0: each round of the halving is played in quarters, and the decision ends after a
quarter in which the leader among the candidates still in is s standard errors of the
difference of two means above the next one (unpaired, so conservative under common random
numbers; at least 8 simulations each): a clear decision spends less of its budget. Sunken
Treasure's default is 0.7, Secrets of the Sea's 0.8 (issue #37). With `z` > 0
(the paired test) the decision is looked at every 4 simulations of each candidate and ends
once every candidate is s standard errors of its paired difference behind the base player's
choice (or equal to it in every simulation) or z + s ahead of it (paired_clear).

The weight row of a `search` seat is the base player's own weight vector, and in its last
N_PARAMS columns the search's parameters (P_*; GameSpec.policy_arrays puts them there): so a
simulation plays a `search` seat with its own row, as the base player. The search's working
memory is the tail of the players' int and float scratch (x, xf) behind the base players'
part: no allocation in the decision loop.

The game provides, by name (simcore.frame.skeleton.bind_driver finds them):

    search_options(s, r, seat, x, at) -> n       the candidate codes into x[at : at + n]
                                                 (n <= MAX_OPTIONS; 0 or 1: nothing to choose)
    search_play(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab) -> err
                                                 the seat's whole turn: candidate `opt` first,
                                                 completed by policy `pol` (weights wts[seat])
    search_hide(s, r, seat, rng)                 optional: resample what `seat` cannot see

A game whose turn holds several decisions worth searching (Secrets of the Sea: when to stop a
dive, after seeing the dice) searches each of them instead of the turn's first one. It also
provides:

    search_step(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab) -> err
                                                 only the decision `opt` (the real game)
    search_more(s, r, seat, turn) -> bool        the seat has another decision in this turn
                                                 (turn: s[S_TURN] when the turn began)
    search_prefer(s, r, seat, base, wts, x, xf, at, n) -> i
                                                 which of the n candidates x[at:] the base
                                                 player `base` would choose (weight z > 0;
                                                 default: the first)
    search_eval(s, r, seat, lead) -> float       the value for `seat` of a simulation cut at
                                                 the horizon, on the scale of search_value
                                                 (default: search_value, the scores so far)

and search_play plays candidate `opt` and completes the turn from there (the simulations).
By default search_step is search_play and search_more is false: one decision per turn.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simcore.frame.jit import kernel
from simcore.frame.rng import next_u64, stream_for
from simcore.frame.tracebuf import T_ON

SEARCH_ID = 64  # the policy id of `search` in every game
MAX_OPTIONS = 64  # candidates per decision at the most

# the search's parameters: the last N_PARAMS columns of the weight matrix
P_BUDGET = 0
P_HORIZON = 1
P_BASE = 2  # the base player's policy id
P_LEAD = 3
P_Z = 4
P_START = 5
P_STOP = 6
N_PARAMS = 7

# the weights a user sets, in the order they follow the base player's weights in a search
# seat's weight vector: name -> (default, low, high, whole, description)
PARAMS: dict[str, tuple[float, float, float, bool, str]] = {
    "budget": (64.0, 0.0, 100_000.0, True, "simulations per decision (0: the base player)"),
    "horizon": (0.0, 0.0, 10_000.0, True, "turns simulated after the candidate (0: to the end)"),
    "lead": (0.05, 0.0, 1.0, False, "weight of the score lead in a simulation's value"),
    "z": (
        0.0,
        0.0,
        10.0,
        False,
        "0: sequential halving; > 0: keep the base player's choice unless another candidate "
        "beats it by this many standard errors (paired)",
    ),
    "start": (
        0.0,
        0.0,
        10_000.0,
        True,
        "the first round (0-based) in which the seat searches; before it, it plays as its "
        "base player (games without rounds: turns / players)",
    ),
    "stop": (
        0.0,
        0.0,
        10.0,
        False,
        "0: every simulation of the budget; > 0: the decision stops once it is clear (the "
        "halving's leader this many standard errors ahead of the next; with z, every "
        "candidate this many behind the base player's choice or z + stop ahead)",
    ),
}


def row_tail(values: tuple[float, ...], base_id: int) -> list[float]:
    """The last N_PARAMS columns of a search seat's weight row, from the values of PARAMS
    (in their order) and the base player's id."""
    budget, horizon, lead, z, start, stop = values
    return [budget, horizon, float(base_id), lead, z, start, stop]


def x_tail(x_base: int, state_size: int, max_players: int) -> int:
    """The int scratch the search needs behind the players' x_base values."""
    return state_size + x_base + 2 * max_players + 2 * MAX_OPTIONS + 2 * max_players


def xf_tail(xf_base: int) -> int:
    """The float scratch the search needs behind the players' xf_base values."""
    return xf_base + 2 * MAX_OPTIONS


def offsets(x_base: int, xf_base: int, state_size: int, max_players: int) -> dict[str, int]:
    """The offsets of the search's working memory in x and xf (bound into the templates)."""
    xs = x_base
    xx = xs + state_size
    xp = xx + x_base
    xo = xp + max_players
    xa = xo + MAX_OPTIONS
    xsc = xa + MAX_OPTIONS
    return {
        "XS_ROOT": xs,  # the position at the decision
        "XS_X": xx,  # the players' int scratch at the decision
        "XS_POLS": xp,  # each seat's player in the simulations
        "XS_OPTS": xo,  # the candidates
        "XS_ALIVE": xa,  # the candidates still in
        "XS_SCORE": xsc,  # scores and tie-breaks of a finished simulation
        "XS_TB": xsc + max_players,
        "XF_X": xf_base,  # the players' float scratch at the decision
        "XF_SUM": 2 * xf_base,  # the sum of each candidate's simulation values (z > 0:
        # of its differences from the base player's choice)
        "XF_SQ": 2 * xf_base + MAX_OPTIONS,  # z > 0: the sum of the squared differences
        "X_BASE": x_base,
        "XF_BASE": xf_base,
    }


# ------------------------------------------------------------------------------ templates
# Plain functions, compiled per game by simcore.frame.skeleton.bind_driver with the game's hooks and
# constants (the names in capitals and game_*) as their globals.


def search_value(s, r, seat, x, lead):  # pragma: no cover - compiled
    """A finished (or cut) simulation's value for `seat`: its share of the win, plus `lead`
    times its score lead over the best other seat, scaled into -1..1."""
    for k in range(MAX_PLAYERS):  # noqa: F821
        x[XS_SCORE + k] = 0  # noqa: F821
        x[XS_TB + k] = 0  # noqa: F821
    score = x[XS_SCORE : XS_SCORE + MAX_PLAYERS]  # noqa: F821
    tb = x[XS_TB : XS_TB + MAX_PLAYERS]  # noqa: F821
    game_scores(s, r, score, tb)  # noqa: F821
    w, mask = game_winners(s, r, score, tb)  # noqa: F821
    v = 0.0
    if (mask >> seat) & 1:
        n = 0
        for k in range(r[0]):
            n += (mask >> k) & 1
        v = 1.0 / n
    best = -(1 << 62)
    for k in range(r[0]):
        if k != seat and score[k] > best:
            best = score[k]
    if r[0] > 1 and lead > 0.0:
        d = score[seat] - best
        scale = abs(score[seat]) + abs(best) + 1
        v += lead * d / scale
    return v


def simulate(s, r, tr, seat, opt, wts, key, j, horizon, lead, rng, checked, x, xf, tab):  # noqa: E501  # pragma: no cover
    """One simulation of candidate `opt` on stream (key, j), from the position saved at the
    decision; its value for `seat` (0 if the simulation meets an error)."""
    for k in range(STATE_SIZE):  # noqa: F821
        s[k] = x[XS_ROOT + k]  # noqa: F821
    stream_for(key, np.uint64(j), rng)
    game_search_hide(s, r, seat, rng)  # noqa: F821
    pol = x[XS_POLS + seat]  # noqa: F821
    err = game_search_play(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab)  # noqa: F821
    turns = 0
    while err == 0 and s[S_GAME_OVER] == 0 and (horizon == 0 or turns < horizon):  # noqa: F821
        k = s[S_SEAT]  # noqa: F821
        err = game_play_turn(s, r, tr, k, x[XS_POLS + k], wts, rng, checked, x, xf, tab)  # noqa: F821
        turns += 1
    if err != 0:
        return 0.0
    if SEARCH_EVAL and s[S_GAME_OVER] == 0:  # noqa: F821 - cut at the horizon: the game's evaluation
        return game_search_eval(s, r, seat, lead)  # noqa: F821
    return search_value(s, r, seat, x, lead)


def search_turn(s, r, tr, seat, pols, wts, rng, checked, x, xf, tab):  # pragma: no cover
    """The `search` seat's whole turn: one searched decision, and more while the game's
    search_more says the turn holds another (see the module docstring)."""
    turn = s[S_TURN] if S_TURN >= 0 else 0  # noqa: F821
    err = search_decision(s, r, tr, seat, pols, wts, rng, checked, x, xf, tab)
    while err == 0 and game_search_more(s, r, seat, turn):  # noqa: F821
        err = search_decision(s, r, tr, seat, pols, wts, rng, checked, x, xf, tab)
    return err


def save_root(s, x, xf):  # pragma: no cover - compiled
    """Keep the position at a decision (XS_ROOT) and the players' scratch (XS_X, XF_X)."""
    for k in range(STATE_SIZE):  # noqa: F821
        x[XS_ROOT + k] = s[k]  # noqa: F821
    for k in range(X_BASE):  # noqa: F821
        x[XS_X + k] = x[k]  # noqa: F821
    for k in range(XF_BASE):  # noqa: F821
        xf[XF_X + k] = xf[k]  # noqa: F821


def restore_root(s, x, xf):  # pragma: no cover - compiled
    """Put back what save_root kept: the position and the players' scratch."""
    for k in range(STATE_SIZE):  # noqa: F821
        s[k] = x[XS_ROOT + k]  # noqa: F821
    for k in range(X_BASE):  # noqa: F821
        x[k] = x[XS_X + k]  # noqa: F821
    for k in range(XF_BASE):  # noqa: F821
        xf[k] = xf[XF_X + k]  # noqa: F821


def search_round(s, r):  # pragma: no cover - compiled
    """The round under way (0-based): the game's round counter, or turns / players."""
    if S_ROUND >= 0:  # noqa: F821
        return s[S_ROUND]  # noqa: F821
    if S_TURN >= 0:  # noqa: F821
        return s[S_TURN] // r[0]  # noqa: F821
    return 0


def search_decision(s, r, tr, seat, pols, wts, rng, checked, x, xf, tab):  # pragma: no cover
    """One decision of the `search` seat (the turn's first, or the one search_more found):
    its candidates estimated by simulation, the best played in the real game."""
    w0 = wts.shape[1] - N_PARAMS
    budget = int(wts[seat, w0 + P_BUDGET])
    base = int(wts[seat, w0 + P_BASE])
    z = wts[seat, w0 + P_Z]
    start = int(wts[seat, w0 + P_START])
    if start > 0 and search_round(s, r) < start:  # not yet searching: the base player
        budget = 0
    n = game_search_options(s, r, seat, x, XS_OPTS) if budget > 0 else 0  # noqa: F821
    if n <= 1:
        if n == 1:
            opt = x[XS_OPTS]  # noqa: F821
            return game_search_step(s, r, tr, seat, opt, base, wts, rng, checked, x, xf, tab)  # noqa: F821, E501
        return game_play_turn(s, r, tr, seat, base, wts, rng, checked, x, xf, tab)  # noqa: F821
    key = next_u64(rng)
    saved_rng = rng[0]
    on = tr[T_ON]
    tr[T_ON] = 0
    save_root(s, x, xf)
    for k in range(MAX_PLAYERS):  # noqa: F821
        p = pols[k] if k < r[0] else 0
        x[XS_POLS + k] = int(wts[k, w0 + P_BASE]) if p == SEARCH_ID else p  # noqa: F821
    if z > 0.0:
        best = paired(s, r, tr, seat, n, base, z, wts, key, rng, checked, x, xf, tab)
    else:
        best = halving(s, r, tr, seat, n, wts, key, rng, checked, x, xf, tab)
    restore_root(s, x, xf)
    rng[0] = saved_rng
    tr[T_ON] = on
    return game_search_step(s, r, tr, seat, best, base, wts, rng, checked, x, xf, tab)  # noqa: F821


def halving(s, r, tr, seat, n, wts, key, rng, checked, x, xf, tab):  # pragma: no cover
    """Sequential halving over the n candidates in x[XS_OPTS:], on the position saved at
    XS_ROOT: the best candidate's code."""
    w0 = wts.shape[1] - N_PARAMS
    budget = int(wts[seat, w0 + P_BUDGET])
    horizon = int(wts[seat, w0 + P_HORIZON])
    lead = wts[seat, w0 + P_LEAD]
    for i in range(n):
        x[XS_ALIVE + i] = i  # noqa: F821
        xf[XF_SUM + i] = 0.0  # noqa: F821
    rounds = 0
    while (1 << rounds) < n:
        rounds += 1
    alive = n
    done = 0  # simulations each candidate still in has had (the same for all of them)
    stop = wts[seat, w0 + P_STOP]
    for i in range(n):
        xf[XF_SQ + i] = 0.0  # noqa: F821
    for _ in range(rounds):
        per = budget // (rounds * alive)
        if per < 1:
            per = 1
        step = per if stop <= 0.0 else max(per // 4, 1)
        got = 0
        while got < per:
            c = min(step, per - got)
            for a in range(alive):
                i = x[XS_ALIVE + a]  # noqa: F821
                o = x[XS_OPTS + i]  # noqa: F821
                for j in range(done + got, done + got + c):
                    v = simulate(
                        s, r, tr, seat, o, wts, key, j, horizon, lead, rng, checked, x, xf, tab
                    )
                    xf[XF_SUM + i] += v  # noqa: F821
                    xf[XF_SQ + i] += v * v  # noqa: F821
            got += c
            if stop > 0.0:
                b = decided(x, xf, alive, done + got, stop)
                if b >= 0:
                    return x[XS_OPTS + b]  # noqa: F821
        done += per
        # keep the better half (insertion sort of the alive list by mean, best first; ties
        # keep the game's order of the candidates)
        for a in range(1, alive):
            i = x[XS_ALIVE + a]  # noqa: F821
            b = a
            while b > 0 and xf[XF_SUM + x[XS_ALIVE + b - 1]] < xf[XF_SUM + i]:  # noqa: F821
                x[XS_ALIVE + b] = x[XS_ALIVE + b - 1]  # noqa: F821
                b -= 1
            x[XS_ALIVE + b] = i  # noqa: F821
        alive = (alive + 1) // 2
    return x[XS_OPTS + x[XS_ALIVE]]  # noqa: F821


def decided(x, xf, alive, k, stop):  # pragma: no cover - compiled
    """The candidate that leads the others still in by `stop` standard errors of the
    difference of two means of k simulations (unpaired: conservative under common random
    numbers), or -1."""
    if k < 8 or alive < 2:
        return -1
    b = -1
    c = -1
    for a in range(alive):
        i = x[XS_ALIVE + a]  # noqa: F821
        if b < 0 or xf[XF_SUM + i] > xf[XF_SUM + b]:  # noqa: F821
            c = b
            b = i
        elif c < 0 or xf[XF_SUM + i] > xf[XF_SUM + c]:  # noqa: F821
            c = i
    mb = xf[XF_SUM + b] / k  # noqa: F821
    mc = xf[XF_SUM + c] / k  # noqa: F821
    vb = max(xf[XF_SQ + b] / k - mb * mb, 0.0)  # noqa: F821
    vc = max(xf[XF_SQ + c] / k - mc * mc, 0.0)  # noqa: F821
    if mb - mc > stop * np.sqrt((vb + vc) / k) and mb > mc:
        return b
    return -1


def paired(s, r, tr, seat, n, base, z, wts, key, rng, checked, x, xf, tab):  # pragma: no cover
    """The base player's own choice among the n candidates (the game's search_prefer), unless
    another beats it by `z` standard errors: every candidate gets budget // n
    simulations, simulation j of each on the same stream, and a candidate's score is the mean
    of its paired differences from the base's choice over its standard error. With `stop` > 0
    the decision is looked at every 4 simulations of each candidate and ends once it is clear
    (paired_clear). Returns the chosen candidate's code."""
    w0 = wts.shape[1] - N_PARAMS
    budget = int(wts[seat, w0 + P_BUDGET])
    horizon = int(wts[seat, w0 + P_HORIZON])
    lead = wts[seat, w0 + P_LEAD]
    stop = wts[seat, w0 + P_STOP]
    ref = game_search_prefer(s, r, seat, base, wts, x, xf, XS_OPTS, n)  # noqa: F821
    for i in range(n):
        xf[XF_SUM + i] = 0.0  # noqa: F821
        xf[XF_SQ + i] = 0.0  # noqa: F821
    per = budget // n
    if per < 2:
        per = 2
    step = per if stop <= 0.0 else 4
    ro = x[XS_OPTS + ref]  # noqa: F821
    k = 0
    while k < per:
        end = min(k + step, per)
        for j in range(k, end):
            v0 = simulate(s, r, tr, seat, ro, wts, key, j, horizon, lead, rng, checked, x, xf, tab)
            for i in range(n):
                if i != ref:
                    o = x[XS_OPTS + i]  # noqa: F821
                    v = simulate(
                        s, r, tr, seat, o, wts, key, j, horizon, lead, rng, checked, x, xf, tab
                    )  # noqa: E501
                    xf[XF_SUM + i] += v - v0  # noqa: F821
                    xf[XF_SQ + i] += (v - v0) * (v - v0)  # noqa: F821
        k = end
        if stop > 0.0 and k < per and paired_clear(xf, ref, n, k, z, stop):
            break
    best = ref
    top = 0.0
    for i in range(n):
        if i == ref:
            continue
        mean, var = paired_moments(xf, i, k)
        if mean > top and mean * mean * k > z * z * var:
            best = i
            top = mean
    return x[XS_OPTS + best]  # noqa: F821


def paired_moments(xf, i, k):  # pragma: no cover - compiled
    """The mean and the sample variance (at least 0) of candidate i's k paired differences."""
    mean = xf[XF_SUM + i] / k  # noqa: F821
    return mean, max((xf[XF_SQ + i] / k - mean * mean) * k / (k - 1), 0.0)  # noqa: F821


def paired_clear(xf, ref, n, k, z, stop):  # pragma: no cover - compiled
    """Whether a paired decision is clear after k simulations of each candidate (k >= 8):
    every candidate other than the base's choice `ref` is either `stop` standard errors
    behind it (or equal in every simulation) or z + stop standard errors ahead of it."""
    if k < 8:
        return False
    for i in range(n):
        if i == ref:
            continue
        mean, var = paired_moments(xf, i, k)
        if mean <= 0.0:
            if mean * mean * k < stop * stop * var:
                return False
        elif mean * mean * k <= (z + stop) * (z + stop) * var:
            return False
    return True


def first_candidate(s, r, seat, base, wts, x, xf, at, n):  # pragma: no cover - compiled
    """The default `search_prefer`: the game lists the base player's choice first."""
    return 0


def no_hide(s, r, seat, rng):  # pragma: no cover - compiled
    """The default `search_hide`: the game hides nothing from a seat."""
    return


def no_eval(s, r, seat, lead):  # pragma: no cover - compiled
    """The default `search_eval`, never called (SEARCH_EVAL is false without the game's own):
    a cut simulation is valued by search_value, as a finished one."""
    return 0.0


def no_more(s, r, seat, turn):  # pragma: no cover - compiled
    """The default `search_more`: one searched decision per turn."""
    return False


TEMPLATES = (
    search_value,
    simulate,
    decided,
    paired_moments,
    paired_clear,
    save_root,
    restore_root,
    halving,
    paired,
    search_round,
    search_decision,
    search_turn,
)
DEFAULT_HOOKS: dict[str, Any] = {
    "search_hide": kernel(no_hide),
    "search_more": kernel(no_more),
    "search_prefer": kernel(first_candidate),
    "search_eval": kernel(no_eval),
}
HOOKS = ("search_options", "search_play")
STEP_HOOK = "search_step"  # optional; search_play when the game has none
