"""`balance train`: a `trained` player learnt by self-play (docs/trained-players.md).

Every seat plays the model being trained (simcore.frame.trained: each candidate of a decision
scored from the game's features of it, the best played). The model's output is the logit of
the deciding seat's chance to win after the candidate; it learns by Q(lambda) on the seat's own
decisions, as TD-Gammon learnt its afterstate values by TD(lambda) (Tesauro 1995): the target
of a seat's decision t is

    G_t = (1 - lambda) * V_{t+1} + lambda * G_{t+1},   G after its last decision: its share
                                                      of the win (1, 1/k in a k-way tie, 0)

V_{t+1} being the model's chance of the seat's best candidate at its next decision (the value
the greedy player expects, whatever candidate exploration played). After each game the model
takes one stochastic gradient step of the cross-entropy per decision, in the order played, at
the rate alpha / (1 + game / decay). A decision explores with chance epsilon (a candidate
drawn uniformly, from the game's own random stream).

Two other ways to learn (TrainSettings; docs/trained-players.md, "Expert Iteration and games
against the presets: tried"): `league` F, a share F of the games (league_game) with one
learning seat (the game's index modulo the players) against the base player in the others;
and `expert` K, Expert Iteration's first step (Anthony, Tian & Barber 2017): one learning seat
a game, each of its candidates valued by K of the search's simulations (expert_decision: the
base player in every seat, the default search's horizon and lead, common random numbers), the
best valued played, and the model fitted to each value by the same gradient step (the other
seats play the model, or the base player in a league game).

Reproducible bit for bit: the games are played one after the other in one thread, game i on
the frame's stream (seed, i) (simcore.frame.rng), the model's start drawn from numpy's PCG64
of the seed; so a run, and a run resumed from its checkpoint (the model's values saved exactly
in JSON), gives the same model for the same seed on any machine thread count.

The inner loop is compiled: `train_games` below is a template bound per game with the game's
hooks and the trained player's templates (the driver's `trained_names`,
simcore.frame.skeleton.bind_driver), compiled into the game's cache.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simcore.base.errors import InputError, RulesError
from simcore.base.inputs import MAX_ROWS, check_folder_of, check_games, check_seed, check_whole
from simcore.base.trained_model import (
    ACTIVATIONS,
    Model,
    activation_code,
    model_size,
    save_model,
    shipped_path,
)
from simcore.frame.jit import bound_copy, driver, kernel
from simcore.frame.registry import GameSpec
from simcore.frame.rng import next_u64, rand_below, rand_float, stream_for
from simcore.frame.search import restore_root, save_root, search_value, simulate
from simcore.frame.tracebuf import T_HEADER
from simcore.frame.trained import MAX_HIDDEN
from simcore.run.checkpoint import CheckpointFile, CheckpointKind, whole
from simcore.run.jobs import Progress

CHECKPOINT = CheckpointKind(
    "train",
    2,
    ("games_done", "model", "average", "snapshots", "curve"),
    "command, game, players, games, seed, rules or settings",
)
MAX_LOG = 1 << 14  # decisions of one game learnt from at the most (the rest are played only)
CHUNK = 20_000  # games between two progress lines and checkpoints
SNAPSHOT = 10_000  # games between two snapshots of the model (the average's)
BAR_STEP = 1_000  # games a step of the progress bar (a terminal's): the model is the same
# the statistics of a batch of games (train_games' stats)
ST_GAMES = 0  # games learnt from
ST_DECISIONS = 1  # decisions learnt from
ST_SQ = 2  # sum of the squared errors (chance - target) before each step
ST_ERRORS = 3  # games that met an error (not learnt from)
ST_SIZE = 4
# the learning's settings as train_games reads them (learn float64[L_SIZE], _learning)
L_LAM, L_ALPHA, L_DECAY, L_EPS, L_LEAGUE = 0, 1, 2, 3, 4
L_EXPERT = 5  # then the expert's: simulations a candidate, horizon, lead (ex[EX_*])
EX_SIMS, EX_HORIZON, EX_LEAD = 0, 1, 2
L_ACT = L_EXPERT + 3  # the hidden units' activation (simcore.frame.trained.ACT_*)
L_SIZE = L_ACT + 1


@dataclass(frozen=True)
class TrainSettings:
    """The learning's settings (the module's docstring); every one is in the model's
    provenance and the checkpoint's fingerprint."""

    hidden: int = 32  # hidden units (0: a linear score)
    # the hidden units' function (simcore.base.trained_model.ACTIVATIONS); left out of the
    # provenance and the checkpoint's fingerprint when tanh, as before it could be chosen
    activation: str = "tanh"
    lam: float = 0.9  # lambda of the Q(lambda) targets
    alpha: float = 0.02  # the first learning rate
    decay: float = 200_000.0  # the games over which the rate halves
    epsilon: float = 0.02  # the chance that a decision explores
    init: float = 0.5  # the scale of the first weights
    average: float = 0.5  # the model written: the mean of the snapshots of this last part
    # the share of games against the base player: one seat (the game's index modulo the
    # players) learns, the others play the base preset (league_game); 0: self-play only
    league: float = 0.0
    # Expert Iteration: simulations of the search per candidate (0: Q(lambda) self-play); the
    # learner seat's candidates are valued by the search's simulations (expert_decision)
    expert: int = 0

    def record(self) -> dict[str, Any]:
        """The settings as the provenance and the checkpoint's fingerprint keep them (tanh
        units unnamed, so a tanh model's provenance reads as it did before)."""
        d = asdict(self)
        if self.activation == ACTIVATIONS[0]:
            del d["activation"]
        return d

    def check(self) -> None:
        if not 0 <= self.hidden <= MAX_HIDDEN:
            raise InputError(f"--hidden must be 0 to {MAX_HIDDEN}, got {self.hidden}")
        if self.activation not in ACTIVATIONS:
            raise InputError(
                f"--activation must be one of {', '.join(ACTIVATIONS)}, not '{self.activation}'"
            )
        for name, v, lo, hi in (
            ("lam", self.lam, 0.0, 1.0),
            ("epsilon", self.epsilon, 0.0, 1.0),
            ("average", self.average, 0.0, 1.0),
            ("--league", self.league, 0.0, 1.0),
        ):
            if not lo <= v <= hi:
                raise InputError(f"{name} must be from {lo} to {hi}, got {v}")
        if not 0 <= self.expert <= 4096:
            raise InputError(f"--expert must be 0 to 4096 simulations, got {self.expert}")
        if not self.decay > 0:
            raise InputError(f"decay must be above 0, got {self.decay}")
        if not 0.0 < self.alpha <= 10.0:  # a rate of 0 learns nothing: the model its start
            raise InputError(f"--alpha must be above 0 and at most 10, got {self.alpha}")


@dataclass
class TrainResult:
    """A finished training: the model, where it was written, its provenance."""

    model: Model
    out: str
    provenance: dict[str, Any]
    sha256: str
    # the learning curve (curve_games > 0): per checkpoint, the games trained and the model's
    # strength then against its base player (simcore.studies.bench.curve_point's fields)
    curve: list[dict[str, Any]] | None = None


# ------------------------------------------------------------------------------ templates
# Plain functions, compiled per game (bind_training) with the game's hooks and the trained
# player's templates and constants (the names in capitals and game_*) as their globals.


def model_pick(s, r, seat, m, nh, act, x, xf, n):  # pragma: no cover - compiled
    """(index, logit) of the candidate among the n in x[XT_OPTS:] that the model being
    trained (m, nh hidden units of activation act) scores highest (the first of equal
    scores); the candidates' features are left in xf[XFT_FEAT:]."""
    game_trained_features(s, r, seat, x, XT_OPTS, n, xf, XFT_FEAT)  # noqa: F821
    pick = 0
    top = -np.inf
    for i in range(n):
        z = model_logit(m, 0, 0, TRAINED_WIDTH, nh, act, xf, XFT_FEAT + i * TRAINED_WIDTH)  # noqa: F821
        if z > top:
            pick = i
            top = z
    return pick, top


def train_decision(
    s, r, tr, seat, m, nh, act, base, wts, rng, x, xf, tab, eps, logf, logv, logs, nlog
):  # pragma: no cover - compiled
    """One decision of a training seat: the model's best candidate (or, with chance eps, one
    drawn uniformly) played with the game's search_step; a decision between two or more
    candidates is logged (the chosen candidate's features, the best candidate's chance, the
    seat) while the log has room. Returns (error, entries logged)."""
    n = game_search_options(s, r, seat, x, XT_OPTS)  # noqa: F821
    if n == 0:
        return game_play_turn(s, r, tr, seat, base, wts, rng, False, x, xf, tab), nlog  # noqa: F821
    pick = 0
    if n > 1:
        pick, top = model_pick(s, r, seat, m, nh, act, x, xf, n)
        greedy = sigmoid(top)  # noqa: F821
        if eps > 0.0 and rand_float(rng) < eps:
            pick = rand_below(rng, n)
        if nlog < logv.shape[0]:
            for f in range(TRAINED_WIDTH):  # noqa: F821
                logf[nlog, f] = xf[XFT_FEAT + pick * TRAINED_WIDTH + f]  # noqa: F821
            logv[nlog] = greedy
            logs[nlog] = seat
            nlog += 1
    opt = x[XT_OPTS + pick]  # noqa: F821
    return game_search_step(s, r, tr, seat, opt, base, wts, rng, False, x, xf, tab), nlog  # noqa: F821


def expert_decision(s, r, tr, seat, base, wts, rng, x, xf, tab, ex, logf, logg, nlog):  # noqa: E501  # pragma: no cover
    """One decision of the learner seat under Expert Iteration: each candidate valued by
    ex[EX_SIMS] of the search's simulations (simcore.frame.search.simulate: the candidate, the turn
    completed and the game played on by the base player in every seat, to the end or the
    horizon; simulation j of every candidate on the same stream), each candidate's features
    logged with its value (clipped to 0..1) as the target, and the best valued candidate
    played (the first of equal values); ex: the simulations, horizon and lead (EX_*). Returns
    (error, entries logged)."""
    sims, horizon, lead = int(ex[EX_SIMS]), int(ex[EX_HORIZON]), ex[EX_LEAD]
    n = game_search_options(s, r, seat, x, XT_OPTS)  # noqa: F821
    if n == 0:
        return game_play_turn(s, r, tr, seat, base, wts, rng, False, x, xf, tab), nlog  # noqa: F821
    pick = 0
    if n > 1:
        game_trained_features(s, r, seat, x, XT_OPTS, n, xf, XFT_FEAT)  # noqa: F821
        key = next_u64(rng)
        saved = rng[0]
        save_root(s, x, xf)
        for k in range(MAX_PLAYERS):  # noqa: F821
            x[XS_POLS + k] = base  # noqa: F821
        top = -np.inf
        for i in range(n):
            o = x[XT_OPTS + i]  # noqa: F821
            total = 0.0
            for j in range(sims):
                total += simulate(
                    s, r, tr, seat, o, wts, key, j, horizon, lead, rng, False, x, xf, tab
                )
            v = min(max(total / sims, 0.0), 1.0)
            if v > top:
                pick = i
                top = v
            if nlog < logg.shape[0]:
                for f in range(TRAINED_WIDTH):  # noqa: F821
                    logf[nlog, f] = xf[XFT_FEAT + i * TRAINED_WIDTH + f]  # noqa: F821
                logg[nlog] = v
                nlog += 1
        restore_root(s, x, xf)
        rng[0] = saved
    opt = x[XT_OPTS + pick]  # noqa: F821
    return game_search_step(s, r, tr, seat, opt, base, wts, rng, False, x, xf, tab), nlog  # noqa: F821


def expert_turn(s, r, tr, seat, base, wts, rng, x, xf, tab, ex, logf, logg, nlog):  # noqa: E501  # pragma: no cover
    """The learner seat's whole turn under Expert Iteration (expert_decision, again while the
    game's search_more says the turn holds another decision). Returns (error, entries)."""
    turn = s[S_TURN] if S_TURN >= 0 else 0  # noqa: F821
    err, nlog = expert_decision(s, r, tr, seat, base, wts, rng, x, xf, tab, ex, logf, logg, nlog)
    while err == 0 and game_search_more(s, r, seat, turn):  # noqa: F821
        err, nlog = expert_decision(
            s, r, tr, seat, base, wts, rng, x, xf, tab, ex, logf, logg, nlog
        )
    return err, nlog


def model_turn(s, r, tr, seat, m, nh, act, base, wts, rng, x, xf, tab):  # pragma: no cover
    """A whole turn of a seat that plays the model without learning (model_decision)."""
    turn = s[S_TURN] if S_TURN >= 0 else 0  # noqa: F821
    err = model_decision(s, r, tr, seat, m, nh, act, base, wts, rng, x, xf, tab)
    while err == 0 and game_search_more(s, r, seat, turn):  # noqa: F821
        err = model_decision(s, r, tr, seat, m, nh, act, base, wts, rng, x, xf, tab)
    return err


def model_decision(s, r, tr, seat, m, nh, act, base, wts, rng, x, xf, tab):  # pragma: no cover
    """A decision of a seat that plays the model greedily without learning (the other seats
    of an Expert Iteration game)."""
    n = game_search_options(s, r, seat, x, XT_OPTS)  # noqa: F821
    if n == 0:
        return game_play_turn(s, r, tr, seat, base, wts, rng, False, x, xf, tab)  # noqa: F821
    pick = model_pick(s, r, seat, m, nh, act, x, xf, n)[0] if n > 1 else 0
    opt = x[XT_OPTS + pick]  # noqa: F821
    return game_search_step(s, r, tr, seat, opt, base, wts, rng, False, x, xf, tab)  # noqa: F821


def sgd_step(m, nh, act, logf, t, target, rate, hid):  # pragma: no cover - compiled
    """One gradient step of the cross-entropy of the model's chance of log entry t against
    `target` (m float64[1, size], layout of simcore.frame.trained.model_logit from column 0;
    hid float64[>= nh] scratch). Returns the squared error before the step."""
    nf = TRAINED_WIDTH  # noqa: F821
    if nh == 0:
        z = m[0, nf]
        for f in range(nf):
            z += m[0, f] * logf[t, f]
        p = sigmoid(z)  # noqa: F821
        d = rate * (p - target)
        for f in range(nf):
            m[0, f] -= d * logf[t, f]
        m[0, nf] -= d
        return (p - target) * (p - target)
    b1 = nh * nf
    w2 = b1 + nh
    z = m[0, w2 + nh]
    for h in range(nh):
        a = m[0, b1 + h]
        for f in range(nf):
            a += m[0, h * nf + f] * logf[t, f]
        hid[h] = unit(a, act)  # noqa: F821
        z += m[0, w2 + h] * hid[h]
    p = sigmoid(z)  # noqa: F821
    d = rate * (p - target)
    for h in range(nh):
        gh = d * m[0, w2 + h] * unit_slope(hid[h], act)  # noqa: F821
        m[0, w2 + h] -= d * hid[h]
        m[0, b1 + h] -= gh
        for f in range(nf):
            m[0, h * nf + f] -= gh * logf[t, f]
    m[0, w2 + nh] -= d
    return (p - target) * (p - target)


def td_update(m, nh, act, logf, logv, logs, logg, nlog, share, players, lam, rate, hid):  # noqa: E501  # pragma: no cover
    """The Q(lambda) targets of a finished game's logged decisions (each seat's from its last
    decision back, module docstring) into logg, then one step per decision in the order
    played. Returns the sum of the squared errors."""
    for k in range(players):
        g = share[k]
        for t in range(nlog - 1, -1, -1):
            if logs[t] == k:
                logg[t] = g
                g = (1.0 - lam) * logv[t] + lam * g
    sq = 0.0
    for t in range(nlog):
        sq += sgd_step(m, nh, act, logf, t, logg[t], rate, hid)
    return sq


def win_shares(s, r, score, tb, share):  # pragma: no cover - compiled
    """Each seat's share of the win of a finished game: 1 alone, 1/k in a k-way tie, 0."""
    for k in range(MAX_PLAYERS):  # noqa: F821
        score[k] = 0
        tb[k] = 0
        share[k] = 0.0
    game_scores(s, r, score, tb)  # noqa: F821
    w, mask = game_winners(s, r, score, tb)  # noqa: F821
    n = 0
    for k in range(r[0]):
        n += (mask >> k) & 1
    for k in range(r[0]):
        if (mask >> k) & 1:
            share[k] = 1.0 / n


def league_game(index, league):  # pragma: no cover - compiled
    """Whether game `index` is played against the base player: the games where
    floor((index + 1) * league) steps up, so a share `league` of every run of games, evenly
    spread, whatever the chunks."""
    return np.floor((index + 1) * league) > np.floor(index * league)


def train_games(r, m, nh, base, wts, seed, first, count, learn, stats):  # pragma: no cover
    """Self-play games first .. first + count - 1 (each on its stream (seed, index)), the model
    m (float64[1, size]) learning after each (td_update, rate alpha / (1 + index / decay)).
    base: the base player's id (decisions without candidates), wts float64[players, W] its
    weights; learn float64[L_SIZE]: the settings (L_*, _learning); stats float64[ST_SIZE]
    summed into."""
    lam, alpha, decay = learn[L_LAM], learn[L_ALPHA], learn[L_DECAY]
    eps, league = learn[L_EPS], learn[L_LEAGUE]
    act = int(learn[L_ACT])
    ex = learn[L_EXPERT:L_ACT]
    sims = int(ex[EX_SIMS])
    s = np.zeros(STATE_SIZE, dtype=np.int64)  # noqa: F821
    x = np.zeros(X_SIZE, dtype=np.int64)  # noqa: F821
    xf = np.zeros(XF_SIZE, dtype=np.float64)  # noqa: F821
    tab = np.zeros(TABLE_SIZE, dtype=np.float64)  # noqa: F821
    game_tables(r, tab)  # noqa: F821
    tr = np.zeros(T_HEADER, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    score = np.zeros(MAX_PLAYERS, dtype=np.int64)  # noqa: F821
    tb = np.zeros(MAX_PLAYERS, dtype=np.int64)  # noqa: F821
    share = np.zeros(MAX_PLAYERS, dtype=np.float64)  # noqa: F821
    logf = np.zeros((MAX_LOG, TRAINED_WIDTH), dtype=np.float64)  # noqa: F821
    logv = np.zeros(MAX_LOG, dtype=np.float64)
    logg = np.zeros(MAX_LOG, dtype=np.float64)
    logs = np.zeros(MAX_LOG, dtype=np.int64)
    hid = np.zeros(max(nh, 1), dtype=np.float64)
    for g in range(count):
        index = first + g
        stream_for(np.uint64(seed), np.uint64(index), rng)
        s[:] = 0
        x[:] = 0
        xf[:] = 0.0
        game_setup(s, r, tr, rng)  # noqa: F821
        nlog = 0
        err = 0
        versus = league > 0.0 and league_game(index, league)
        learner = index % r[0] if versus or sims > 0 else -1
        while err == 0 and s[S_GAME_OVER] == 0:  # noqa: F821
            seat = s[S_SEAT]  # noqa: F821
            turn = s[S_TURN] if S_TURN >= 0 else 0  # noqa: F821
            if learner >= 0 and seat != learner:
                if versus:
                    err = game_play_turn(s, r, tr, seat, base, wts, rng, False, x, xf, tab)  # noqa: F821, E501
                    continue
                err = model_turn(s, r, tr, seat, m, nh, act, base, wts, rng, x, xf, tab)
                continue
            if sims > 0:
                err, nlog = expert_turn(
                    s, r, tr, seat, base, wts, rng, x, xf, tab, ex, logf, logg, nlog
                )
                continue
            err, nlog = train_decision(
                s, r, tr, seat, m, nh, act, base, wts, rng, x, xf, tab, eps, logf, logv, logs, nlog
            )
            while err == 0 and game_search_more(s, r, seat, turn):  # noqa: F821
                err, nlog = train_decision(
                    s,
                    r,
                    tr,
                    seat,
                    m,
                    nh,
                    act,
                    base,
                    wts,
                    rng,
                    x,
                    xf,
                    tab,
                    eps,
                    logf,
                    logv,
                    logs,
                    nlog,
                )
        if err != 0:
            stats[ST_ERRORS] += 1
            continue
        win_shares(s, r, score, tb, share)
        rate = alpha / (1.0 + index / decay)
        if sims > 0:
            sq = 0.0
            for t in range(nlog):
                sq += sgd_step(m, nh, act, logf, t, logg[t], rate, hid)
        else:
            sq = td_update(m, nh, act, logf, logv, logs, logg, nlog, share, r[0], lam, rate, hid)
        stats[ST_GAMES] += 1
        stats[ST_DECISIONS] += nlog
        stats[ST_SQ] += sq


_TEMPLATES = ((model_pick, kernel), (train_decision, kernel), (sgd_step, kernel))
_TEMPLATES += ((td_update, kernel),)
_TEMPLATES += ((league_game, kernel), (expert_decision, kernel), (expert_turn, kernel))
_TEMPLATES += ((model_decision, kernel), (model_turn, kernel))
_TEMPLATES += ((win_shares, kernel), (train_games, driver))
_BOUND: dict[str, Callable] = {}
SEARCH_TEMPLATES = (search_value, simulate, save_root, restore_root)


def bind_training(spec: GameSpec) -> Callable:
    """The game's compiled train_games (bound once per process)."""
    if spec.name not in _BOUND:
        gt = getattr(spec.driver, "trained_names", None)
        if gt is None:
            raise RulesError(f"{spec.name} has no trained player (its game declares no features)")
        names = dict(gt)
        for template in SEARCH_TEMPLATES:  # the expert's simulations, as the search plays them
            names[template.__name__] = bound_copy(template, spec.driver.module, names, kernel)
        names.update({k: v for k, v in globals().items() if k.startswith(("L_", "EX_"))})
        names.update(
            next_u64=next_u64,
            MAX_LOG=MAX_LOG,
            ST_GAMES=ST_GAMES,
            ST_DECISIONS=ST_DECISIONS,
            ST_SQ=ST_SQ,
            ST_ERRORS=ST_ERRORS,
            T_HEADER=T_HEADER,
            stream_for=stream_for,
            rand_below=rand_below,
            rand_float=rand_float,
            np=np,
        )
        for template, compile_ in _TEMPLATES:
            names[template.__name__] = bound_copy(template, spec.driver.module, names, compile_)
        _BOUND[spec.name] = names["train_games"]
    return _BOUND[spec.name]


# ------------------------------------------------------------------------------ the study
def initial_model(width: int, settings: TrainSettings, seed: int) -> np.ndarray:
    """The model's start, float64[1, size]: the first layer's weights uniform in
    +-init / sqrt(width), the output weights in +-init / sqrt(hidden), biases 0 (numpy's
    PCG64 of the seed: the same start for the same seed everywhere)."""
    h = settings.hidden
    m = np.zeros((1, model_size(width, h)), dtype=np.float64)
    gen = np.random.Generator(np.random.PCG64(seed))
    if h == 0:
        return m
    m[0, : h * width] = gen.uniform(-1.0, 1.0, h * width) * settings.init / np.sqrt(width)
    w2 = h * width + h
    m[0, w2 : w2 + h] = gen.uniform(-1.0, 1.0, h) * settings.init / np.sqrt(h)
    return m


def default_out(spec: GameSpec, players: int) -> Path:
    """Where a training writes by default: trained-<players>p.npz in the working folder."""
    return Path(shipped_path(".", players).name)


def train(
    spec: GameSpec,
    players: int,
    games: int,
    *,
    seed: int = 49,
    out: str | Path | None = None,
    variants: tuple[str, ...] | list[str] = (),
    overrides: dict[str, Any] | None = None,
    settings: TrainSettings | None = None,
    checkpoint: str | None = None,
    resume: bool = False,
    command: str = "",
    echo: Callable[[str], None] | None = None,
    chunk: int = CHUNK,
    curve_games: int = 0,
    progress: bool = False,
) -> TrainResult:
    """Train the game's `trained` player for `players` seats by `games` games of self-play
    (the module's docstring) and write the model to `out` with its provenance beside it
    (.json). Progress: a line to `echo` every `chunk` games, and with progress=True a bar on
    stderr (games/s, ETA; the lines written above it); checkpoint: the model and the games
    done, saved every `chunk` games (resume=True continues it, to the same model: the chunks
    change nothing but where a run may stop). curve_games > 0: at every checkpoint the model
    as it stands plays curve_games games against its base player (`evaluate`), the learning
    curve (the result's and the provenance's `curve`); the model is the same with or without."""
    settings = settings or TrainSettings()
    settings.check()
    spec.check_players(players)
    games, seed = check_games(games), check_seed(seed)
    if curve_games:
        curve_games = check_whole(
            curve_games, "--curve", 10, " games for a point of the learning curve", maximum=MAX_ROWS
        )
    kernel_fn = bind_training(spec)
    rules = spec.resolve_rules(list(variants), overrides or {}, None, players)
    out = Path(out) if out else default_out(spec, players)
    if out.suffix != ".npz" or out.is_dir():
        raise InputError(f"--out '{out}' must be a .npz file")
    check_folder_of(str(out), "--out")
    r = spec.pack(rules, players)
    base = spec.policies["trained"].base
    ids, wts = spec.policy_arrays(spec.parse_policies(base, players))
    width = spec.driver.contract.trained_width
    rules_hash = spec.rules_hash(rules, players)
    fingerprint = {
        "command": "train",
        "game": spec.name,
        "players": players,
        "games": games,
        "seed": seed,
        "rules": rules_hash,
        "settings": settings.record(),
    }
    ck = CheckpointFile(checkpoint, fingerprint, CHECKPOINT)
    m = initial_model(width, settings, seed)
    done, total, snaps, curve = 0, np.zeros_like(m), 0, []
    saved = ck.start(resume)
    if saved is not None:
        with ck.checking():
            done, m, total, snaps = _restored(saved, m, games)
            curve = saved["curve"]
            if not isinstance(curve, list) or not all(isinstance(p, dict) for p in curve):
                raise InputError("its curve is not a list of points")
    stats = part = np.zeros(ST_SIZE, dtype=np.float64)
    cpu = time.process_time()
    learn = _learning(spec, players, rules, settings)
    bar = Progress(games, progress, start=done)
    step = BAR_STEP if progress else games  # the games of a call change no game nor the model
    while done < games:
        n = min(chunk - done % chunk, SNAPSHOT - done % SNAPSHOT, games - done, step)
        part = part if done % chunk else np.zeros(ST_SIZE, dtype=np.float64)
        kernel_fn(r, m, settings.hidden, int(ids[0]), wts, np.uint64(seed), done, n, learn, part)
        done += n
        bar.update(done)
        if (done % SNAPSHOT == 0 or done == games) and done > games * (1.0 - settings.average):
            total += m  # the snapshots at fixed games, whatever the chunks
            snaps += 1
        if done % chunk and done < games:
            continue
        stats = stats + part
        if curve_games:
            played = time.process_time()
            at = (seed + 1) % 2**64  # never the training's own games
            point = evaluate(spec, players, rules, m[0], settings, curve_games, at)
            curve.append({"games_trained": done, **point})
            cpu += time.process_time() - played  # the training's CPU time leaves them out
        ck.save(
            games_done=done, model=m[0].tolist(), average=total[0].tolist(), snapshots=snaps,
            curve=curve,
        )  # fmt: skip
        if echo is not None or bar.enabled:
            point = curve[-1] if curve_games else None
            _say(bar, echo, f"{spec.name}, {players} players: {done:,} of {games:,} games, "
                 + _chunk_words(part, point, base, cpu))  # fmt: skip
    bar.close()
    cpu = time.process_time() - cpu
    if stats[ST_ERRORS]:
        raise InputError(f"{int(stats[ST_ERRORS])} training games met an error (not learnt from)")
    final = total[0] / snaps if snaps else m[0].copy()
    model = Model(spec.name, players, width, settings.hidden, final, activation=settings.activation)
    provenance = {
        "game": spec.name,
        "players": players,
        "command": command
        or f"balance train {spec.name} --players {players} --games {games} --seed {seed}",
        "seed": seed,
        "games": games,
        "cpu_seconds": round(cpu, 1),  # this process's part (a resumed run: since the resume)
        "rules_hash": rules_hash,
        "variants": list(variants),
        "version": _version(),
        "method": _method(settings),
        "settings": settings.record(),
        "features": width,
    }
    if curve_games:
        provenance["curve"] = curve
    digest = save_model(model, out, provenance)
    return TrainResult(model, str(out), provenance, digest, curve if curve_games else None)


def _say(bar: Progress, echo: Callable[[str], None] | None, line: str) -> None:
    """A progress line: above the bar on a terminal (Progress.line), and to `echo` if given."""
    bar.line(line)
    if echo is not None:
        echo(line)


def _chunk_words(part: np.ndarray, point: dict | None, base: str, cpu: float) -> str:
    """The end of a chunk's progress line: the chunk's error, the curve's point against the
    base player (when measured) and the CPU seconds since `cpu`."""
    rmse = np.sqrt(part[ST_SQ] / max(part[ST_DECISIONS], 1.0))
    strength = f", {100 * point['win_rate']:.1f}% against {base}" if point else ""
    return f"error {rmse:.4f}{strength}, {time.process_time() - cpu:.0f} s CPU"


def evaluate(
    spec: GameSpec, players: int, rules: Any, values, settings: TrainSettings, games: int, seed: int
):
    """The strength of the model `values` (a row of the training's model) as a `trained` seat
    against its base player in the other seats, seats rotated: games 0.. of `seed` (the
    training's seed + 1, so never its own games), the seat's outright wins with their Wilson
    interval and Elo against the fair share (simcore.studies.bench.curve_point); alone (one
    player: a success, not a share), against the base player's own success on those games."""
    from simcore.frame.registry import SeatPolicy
    from simcore.studies.bench import curve_point, entry_wins

    own = spec.policies["trained"]
    width = spec.driver.contract.trained_width
    model = Model(
        spec.name, players, width, settings.hidden, values, activation=settings.activation
    )
    seat = SeatPolicy(own, model.weights(), "trained")
    others = spec.resolve_seats(spec.parse_policies(own.base, players), rules)[1:]
    ids, w = spec.policy_arrays([seat, *others])
    rows = np.zeros((games, len(spec.columns)), dtype=np.int64)
    r = spec.pack(rules, players)
    spec.play_batch(r, ids, w, np.uint64(seed), np.int64(0), True, False, rows)
    wins, shared = entry_wins(spec, rows, players)
    fair = None
    if players == 1:  # no seat to share with: the base player's own success on the same games
        ids, w = spec.policy_arrays(spec.resolve_seats(spec.parse_policies(own.base, 1), rules))
        spec.play_batch(r, ids, w, np.uint64(seed), np.int64(0), True, False, rows)
        fair = entry_wins(spec, rows, 1)[0] / games
    return {"games": games, "wins": wins, "shared": shared} | curve_point(
        wins, games, shared, players, fair
    )


def _learning(spec: GameSpec, players: int, rules: Any, settings: TrainSettings) -> np.ndarray:
    """train_games' settings (L_*): the learning's, and the expert's simulations a candidate
    with the horizon and lead weight of the game's default search."""
    from simcore.frame.search import N_PARAMS, P_HORIZON, P_LEAD

    _, w = spec.policy_arrays(spec.resolve_seats(spec.parse_policies("search", players), rules))
    w0 = w.shape[1] - N_PARAMS
    learn = np.zeros(L_SIZE, dtype=np.float64)
    learn[[L_LAM, L_ALPHA, L_DECAY, L_EPS, L_LEAGUE]] = (
        settings.lam, settings.alpha, settings.decay, settings.epsilon, settings.league
    )  # fmt: skip
    learn[L_EXPERT:L_ACT] = (settings.expert, w[0, w0 + P_HORIZON], w[0, w0 + P_LEAD])
    learn[L_ACT] = activation_code(settings.activation)
    return learn


def _restored(saved: dict[str, Any], m: np.ndarray, games: int):
    """(games done, model, sum of the snapshots, snapshots) from a checkpoint's parts, checked
    (InputError naming the part)."""
    done, snaps = saved["games_done"], saved["snapshots"]
    if not whole(done) or done > games:
        raise InputError(f"its games_done is not a whole number from 0 to {games}")
    if not whole(snaps):
        raise InputError("its snapshots is not a whole number")
    arrays = []
    for part in ("model", "average"):
        values = saved[part]
        if (
            not isinstance(values, list)
            or len(values) != m.shape[1]
            or not all(isinstance(v, float) for v in values)
        ):
            raise InputError(f"its {part} is not a list of {m.shape[1]} numbers")
        arrays.append(np.array([values], dtype=np.float64))
        if not np.isfinite(arrays[-1]).all():
            raise InputError(f"its {part} holds values that are not finite")
    return done, arrays[0], arrays[1], snaps


def _method(settings: TrainSettings) -> str:
    """The provenance's words for how the model learnt (its settings say it in numbers)."""
    if settings.expert:
        how = f"Expert Iteration ({settings.expert} simulations a candidate)"
        plain = f"{how}, the learning seat against the model in the other seats"
    else:
        how = "Q(lambda)"
        plain = f"{how} self-play"
    if settings.league >= 1.0:
        return f"{how}, one learning seat against the base player (docs/trained-players.md)"
    if settings.league > 0.0:
        plain += f"; in {settings.league:g} of the games one learning seat against the base player"
    return plain + " (docs/trained-players.md)"


def _version() -> str:
    """The package's version (analysis.render's rule, without importing the analysis)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("balance-analyser")
    except PackageNotFoundError:
        import tomllib

        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        try:
            return str(tomllib.loads(pyproject.read_text())["project"]["version"])
        except (OSError, ValueError, KeyError):
            return "0+unknown"
