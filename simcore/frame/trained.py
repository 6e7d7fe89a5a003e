"""The `trained` player, for every game that declares the optional hook `trained_features`: a
model learnt by self-play (simcore.studies.train) scores each candidate of a decision, and the
best is played. A decision costs the game's candidate list, one feature vector per candidate
and a few dot products, all compiled: no Python runs per move (docs/trained-players.md).

At each decision the player asks the game for its candidates (the `search` player's hook
`search_options`), for one feature vector of TRAINED_WIDTH floats per candidate (the game's
`trained_features`), scores each with the model, and plays the candidate of the highest score
(the first listed of equal scores: deterministic) with the game's `search_step`; it decides
again while the game's `search_more` says the turn holds another decision. A decision without
candidates is the base player's (the game's default player; its weights are the first columns
of the seat's row, so the game's hooks read a preset's weights there).

The model is a small network on the candidate's features: a linear score (hidden = 0) or one
hidden layer of units of the model's activation g (tanh, or softsign a / (1 + |a|)),

    score = b2 + sum_h w2[h] * g(b1[h] + sum_f W1[h, f] * feature[f])

the logit of the seat's chance to win after that candidate. Its values reach the kernel in the
seat's float weight row, like every player's weights (numba freezes module globals): the row of
a `trained` seat is

    [base player's weights | ... | model (model_size values) | header (N_HEAD) | search tail]

the header N_HEAD columns before the search's parameters (simcore.frame.search.N_PARAMS, the
last columns of every row of a game with a search): the feature width, the hidden units, the
base player's id, the model's first column and its activation's code (GameSpec.policy_arrays
writes them). A lineup
without a `trained` seat keeps the game's usual width, so its rows and speed are unchanged.

The player's working memory is a tail of the players' scratch behind the search's (XT_OPTS in
x, XFT_FEAT in xf, simcore.frame.skeleton.bind_driver), so a `trained` seat may play inside a
search's simulations without touching the search's own memory.

The game provides

    trained_features(s, r, seat, x, at, n, xf, out)
                       the features of the n candidates x[at : at + n] for `seat`:
                       candidate i's TRAINED_WIDTH floats into xf[out + i * TRAINED_WIDTH ...]
                       (the contract's trained_width; values of order 1)
"""

from __future__ import annotations

import numpy as np

from simcore.base.trained_model import (  # model_size: the layout's size
    WEIGHTS_HEAD,
    activation_code,
    model_size,  # noqa: F401
)
from simcore.frame.jit import kernel
from simcore.frame.search import MAX_OPTIONS, N_PARAMS

TRAINED_ID = 65  # the policy id of `trained` in every game with the hook
MAX_HIDDEN = 256  # hidden units at the most
MAX_FEATURES = 64  # features of a candidate at the most

# the header of a trained seat's row, N_HEAD columns before the search's parameters
H_WIDTH = 0  # the model's features per candidate (the game's trained_width)
H_HIDDEN = 1  # hidden units (0: a linear score)
H_BASE = 2  # the base player's id (decisions without candidates)
H_START = 3  # the row's column of the model's first value
H_ACT = 4  # the hidden units' activation (simcore.base.trained_model.ACTIVATIONS: 0 tanh)
N_HEAD = 5
ACT_TANH, ACT_SOFTSIGN = activation_code("tanh"), activation_code("softsign")


@kernel
def model_logit(m, row, c0, nf, nh, act, v, at):
    """The model's score of one candidate: m float64[rows, W] holds the model in row `row` from
    column c0 (nf features, nh hidden units of activation `act`: W1[h, f] at c0 + h * nf + f,
    then b1[nh], w2[nh], b2; linear, nh = 0: w[nf] at c0, then b); v float64[...] the features
    from v[at]. A softsign model skips the features that are 0 (adding a zero changes no sum);
    a tanh model's sums are those of before softsign units existed, term for term."""
    if nh == 0:
        z = m[row, c0 + nf]
        for f in range(nf):
            z += m[row, c0 + f] * v[at + f]
        return z
    skip = act != ACT_TANH
    b1 = c0 + nh * nf
    w2 = b1 + nh
    z = m[row, w2 + nh]
    # four hidden units at a time: four independent sums, each added in the order of the
    # features as one unit alone would be (the same floats), so they overlap in the pipeline
    h = 0
    while h + 4 <= nh:
        a0 = m[row, b1 + h]
        a1 = m[row, b1 + h + 1]
        a2 = m[row, b1 + h + 2]
        a3 = m[row, b1 + h + 3]
        w = c0 + h * nf
        for f in range(nf):
            x = v[at + f]
            if skip and x == 0.0:
                continue
            a0 += m[row, w + f] * x
            a1 += m[row, w + nf + f] * x
            a2 += m[row, w + 2 * nf + f] * x
            a3 += m[row, w + 3 * nf + f] * x
        z += m[row, w2 + h] * unit(a0, act)
        z += m[row, w2 + h + 1] * unit(a1, act)
        z += m[row, w2 + h + 2] * unit(a2, act)
        z += m[row, w2 + h + 3] * unit(a3, act)
        h += 4
    for k in range(h, nh):
        a = m[row, b1 + k]
        w = c0 + k * nf
        for f in range(nf):
            x = v[at + f]
            if skip and x == 0.0:
                continue
            a += m[row, w + f] * x
        z += m[row, w2 + k] * unit(a, act)
    return z


@kernel(inline="always")
def softsign(a):
    """The softsign unit, a / (1 + |a|): bounded like tanh, a division instead of tanh's
    exponentials (docs/trained-players.md, "The units")."""
    return a / (1.0 + abs(a))


@kernel(inline="always")
def unit(a, act):
    """A hidden unit's output for its sum `a` (the training's forward pass)."""
    if act == ACT_TANH:
        return np.tanh(a)
    return softsign(a)


@kernel(inline="always")
def unit_slope(y, act):
    """The slope of a unit at its output y: 1 - y^2 for tanh, (1 - |y|)^2 for softsign."""
    if act == ACT_TANH:
        return 1.0 - y * y
    return (1.0 - abs(y)) * (1.0 - abs(y))


@kernel(inline="always")
def sigmoid(z):
    """The chance of the logit z."""
    if z >= 0.0:
        return 1.0 / (1.0 + np.exp(-z))
    e = np.exp(z)
    return e / (1.0 + e)


# ------------------------------------------------------------------------------ templates
# Plain functions, compiled per game by simcore.frame.skeleton.bind_driver with the game's hooks
# and constants (the names in capitals and game_*) as their globals.


def trained_best(s, r, seat, wts, x, xf, at, n):  # pragma: no cover - compiled
    """The index of the candidate among the n in x[at:] that the model of wts[seat] scores
    highest (the first of equal scores)."""
    hd = wts.shape[1] - N_PARAMS - N_HEAD  # noqa: F821
    nf = int(wts[seat, hd + H_WIDTH])
    nh = int(wts[seat, hd + H_HIDDEN])
    c0 = int(wts[seat, hd + H_START])
    act = int(wts[seat, hd + H_ACT])
    game_trained_features(s, r, seat, x, at, n, xf, XFT_FEAT)  # noqa: F821
    best = 0
    top = -np.inf
    for i in range(n):
        z = model_logit(wts, seat, c0, nf, nh, act, xf, XFT_FEAT + i * TRAINED_WIDTH)  # noqa: F821
        if z > top:
            best = i
            top = z
    return best


def trained_pick(s, r, seat, wts, x, xf):  # pragma: no cover - compiled
    """(n, i): the n candidates of the seat's decision in x[XT_OPTS:], and the index of the
    one the model scores highest (trained_best; 0 when n <= 1)."""
    n = game_search_options(s, r, seat, x, XT_OPTS)  # noqa: F821
    if n <= 1:
        return n, 0
    return n, trained_best(s, r, seat, wts, x, xf, XT_OPTS, n)  # noqa: F821


def trained_decision(s, r, tr, seat, wts, rng, checked, x, xf, tab):  # pragma: no cover
    """One decision of the `trained` seat: the model's candidate played (search_step), or
    the base player's turn where the game lists no candidate."""
    base = trained_base(wts, seat)
    n, best = trained_pick(s, r, seat, wts, x, xf)
    if n == 0:
        return game_play_turn(s, r, tr, seat, base, wts, rng, checked, x, xf, tab)  # noqa: F821
    opt = x[XT_OPTS + best]  # noqa: F821
    return game_search_step(s, r, tr, seat, opt, base, wts, rng, checked, x, xf, tab)  # noqa: F821


def trained_turn(s, r, tr, seat, wts, rng, checked, x, xf, tab):  # pragma: no cover
    """The `trained` seat's whole turn: a decision, and more while the game's search_more
    says the turn holds another."""
    turn = s[S_TURN] if S_TURN >= 0 else 0  # noqa: F821
    err = trained_decision(s, r, tr, seat, wts, rng, checked, x, xf, tab)
    while err == 0 and game_search_more(s, r, seat, turn):  # noqa: F821
        err = trained_decision(s, r, tr, seat, wts, rng, checked, x, xf, tab)
    return err


def turn_of(s, r, tr, seat, pol, wts, rng, checked, x, xf, tab):  # pragma: no cover
    """A seat's turn by any player but `search` (the search's simulations play the other
    seats with it): the trained turn, or the game's play_turn."""
    if pol == TRAINED_ID:
        return trained_turn(s, r, tr, seat, wts, rng, checked, x, xf, tab)
    return game_play_turn(s, r, tr, seat, pol, wts, rng, checked, x, xf, tab)  # noqa: F821


def prefer_of(s, r, seat, base, wts, x, xf, at, n):  # pragma: no cover - compiled
    """Which of the search's n candidates x[at:] its base player would choose (the search's
    `z` keeps it unless another is clearly better): the model's pick for a `trained` base
    (search:base=trained), scored on the search's own list, else the game's search_prefer."""
    if base == TRAINED_ID:
        return trained_best(s, r, seat, wts, x, xf, at, n)
    return game_search_prefer(s, r, seat, base, wts, x, xf, at, n)  # noqa: F821


def trained_base(wts, seat):  # pragma: no cover - compiled
    """The id of the base player of the model in the seat's row (its decisions' completion
    and its turns without candidates)."""
    return int(wts[seat, wts.shape[1] - N_PARAMS - N_HEAD + H_BASE])  # noqa: F821


def step_of(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab):  # pragma: no cover
    """The search's search_step: candidate `opt` played in the real game, a `trained` base's
    decision completed as the model does it (by the model's base player)."""
    if pol == TRAINED_ID:
        pol = trained_base(wts, seat)
    return game_search_step(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab)  # noqa: F821


def play_of(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab):  # pragma: no cover
    """The search's search_play (a simulation's first turn): candidate `opt`, then the rest
    of the turn by the base player; for a `trained` base, the candidate as the model plays a
    decision and the turn's further decisions by the model."""
    if pol != TRAINED_ID:
        return game_search_play(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab)  # noqa: F821
    turn = s[S_TURN] if S_TURN >= 0 else 0  # noqa: F821
    err = step_of(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab)
    while err == 0 and game_search_more(s, r, seat, turn):  # noqa: F821
        err = trained_decision(s, r, tr, seat, wts, rng, checked, x, xf, tab)
    return err


def no_trained_turn(s, r, tr, seat, wts, rng, checked, x, xf, tab):  # pragma: no cover
    """The `trained_turn` of a game without the hook (never called: HAS_TRAINED is false)."""
    return END_ERROR  # noqa: F821


TEMPLATES = (
    trained_base,
    trained_best,
    trained_pick,
    trained_decision,
    trained_turn,
    turn_of,
    prefer_of,
    step_of,
    play_of,
)
HOOK = "trained_features"


def offsets(x_size: int, xf_size: int, width: int) -> dict[str, int]:
    """The offsets of the player's working memory behind the players' and the search's
    scratch (x_size, xf_size values), bound into the templates."""
    return {"XT_OPTS": x_size, "XFT_FEAT": xf_size, "TRAINED_WIDTH": width}


def x_tail() -> int:
    """The int scratch the player needs (its candidates)."""
    return MAX_OPTIONS


def xf_tail(width: int) -> int:
    """The float scratch the player needs (each candidate's features)."""
    return MAX_OPTIONS * width


DESCRIPTION = (
    "a model trained by self-play scores each candidate of a decision (docs/trained-players.md): "
    "the model shipped for the player count, or model=PATH (balance train)"
)


def fill_row(row: np.ndarray, model: tuple[float, ...], base_weights, base_id: int) -> None:
    """Write a `trained` seat's weight row (the module's docstring) in place: the base
    player's weights first, the model's values (model[3:]) and the header (width, hidden units,
    the base player's id, the first column, the activation = model[0], model[1], model[2])
    last, before the search's parameters (simcore.base.trained_model.Model.weights)."""
    width, hidden, act, *values = model
    hd = row.size - N_PARAMS - N_HEAD
    c0 = hd - len(values)
    base = list(base_weights)
    assert c0 >= len(base), "the row is too narrow for the model"
    row[: len(base)] = base
    row[c0:hd] = values
    row[hd : hd + N_HEAD] = (width, hidden, float(base_id), float(c0), act)


def extra_width(models: list[tuple[float, ...]]) -> int:
    """The columns a lineup's weight matrix needs beyond the game's for its `trained` seats'
    models (each the seat's weights: width, hidden units, activation, values)."""
    return max((len(m) - WEIGHTS_HEAD + N_HEAD for m in models), default=0)
