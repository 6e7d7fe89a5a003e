"""Comparisons on common random numbers: variants, `--set` arms, dice and parameter sweeps.

Every arm of a comparison is played on the same games: game i of seed S draws its randomness
only from (S, i), so arm A's game i and arm B's game i share their random stream and differ only
by the rules. The differences between arms are therefore analysed per game (paired), which
removes the game-to-game noise both arms share.

Memory stays flat however many games are played: each chunk of games is turned into a matrix of
per-game metrics per arm (wins per seat, length, scores, counters), folded into running sums,
sums of products within each arm and sums of products with the first arm (`ArmMoments`), and
dropped. Every paired interval is computed from those sums.

Statistics come from scipy / statsmodels: t intervals and p-values (scipy.stats.t), Wilson
intervals, Holm's correction (statsmodels multipletests) and Cohen's h
(statsmodels proportion_effectsize).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
import typing
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as _st
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_effectsize

from analysis.stats import seat_balance, wilson

ALPHA = 0.05
DEFAULT_CHUNK = 16_384  # games per arm in one task of the local backend
DASK_CHUNK = 4_096  # ... of the Dask backend: more, smaller tasks to spread over the workers


# --------------------------------------------------------------------------------- arms
@dataclass(frozen=True)
class Arm:
    """One setting of a comparison: variants (composable with '+') and rules overrides."""

    label: str
    variants: tuple[str, ...] = ()
    overrides: tuple[tuple[str, Any], ...] = ()

    @property
    def override_dict(self) -> dict[str, Any]:
        return dict(self.overrides)


def variant_arm(name: str) -> Arm:
    """`--variant short+no-chips` -> an arm labelled by the variant."""
    return Arm(name.strip(), (name.strip(),))


_KEY_START = re.compile(r",(?=\s*[A-Za-z_][A-Za-z0-9_]*\s*=)")


def parse_arm_text(text: str) -> dict[str, str]:
    """'die=0,1,1,2,2,3,chips=false' -> {'die': '0,1,1,2,2,3', 'chips': 'false'}.

    A comma starts a new field only where `name=` follows, so list values keep their commas."""
    from simcore.rulesbase import RulesError

    out: dict[str, str] = {}
    text = text.strip()
    if not text:
        raise RulesError("--set-arm needs key=value, got an empty text")
    for part in _KEY_START.split(text):
        if "=" not in part:
            raise RulesError(f"--set-arm expects key=value[,key=value...], got '{text}'")
        k, v = part.split("=", 1)
        if not k.strip():
            raise RulesError(f"--set-arm expects key=value[,key=value...], got '{text}'")
        out[k.strip()] = v.strip()
    return out


def set_arm(text: str) -> Arm:
    """`--set-arm "die=black,chips=false"` -> an arm of those overrides on the base rules."""
    d = parse_arm_text(text)
    return Arm(",".join(f"{k}={v}" for k, v in d.items()), (), tuple(d.items()))


def unique_labels(arms: list[Arm]) -> list[Arm]:
    """Arms with distinct labels ('base', 'base #2', ...)."""
    seen: dict[str, int] = {}
    out = []
    for a in arms:
        seen[a.label] = seen.get(a.label, 0) + 1
        out.append(
            a if seen[a.label] == 1 else dataclasses.replace(a, label=f"{a.label} #{seen[a.label]}")
        )
    return out


# --------------------------------------------------------------------------------- metrics
@dataclass(frozen=True)
class Metric:
    """A per-game metric (the mean over games is what is compared)."""

    name: str  # column of the metric matrix, e.g. win_0, rounds, sent_home
    label: str  # words for a designer: "seat 0 win rate"
    kind: str  # 'rate' (a share of games, shown in points), 'mean' (a count per game)
    more: str = "higher"  # word for an increase: 'longer', 'more', 'higher'
    less: str = "lower"
    unit: str = ""  # after the number: 'rounds', 'per game'


def metric_list(spec: Any, players: int) -> list[Metric]:
    """The per-game metrics of a game: wins per seat, shared wins, first-player share, length,
    scores and the game's counters (seat counters summed over the seats)."""
    m: list[Metric] = []
    for s in range(players):
        m.append(Metric(f"win_{s}", f"seat {s} win rate", "rate"))
    if players > 1:
        m.append(Metric("shared", "shared-win rate", "rate"))
        # seat 0's wins minus its fair share of this game's outright win: the per-game form of
        # the first-player advantage (its mean is the advantage)
        m.append(Metric("fpa", "first-player advantage", "rate", "larger", "smaller"))
    m.append(Metric("rounds", "length", "mean", "longer", "shorter", "rounds"))
    m.append(Metric("turns", "length in turns", "mean", "longer", "shorter", "turns"))
    for s in range(players):
        m.append(Metric(f"score_{s}", f"seat {s} mean score", "mean"))
    for c in spec.game_counters:
        m.append(Metric(c, c.replace("_", " "), "mean", "more", "fewer", "per game"))
    for c in spec.seat_counters:
        m.append(
            Metric(c, c.replace("_", " ") + " (all seats)", "mean", "more", "fewer", "per game")
        )
    return m


def game_metrics(rows: pd.DataFrame, metrics: list[Metric], players: int) -> np.ndarray:
    """Result rows -> float64[n_games, n_metrics], one column per metric of `metrics`."""
    n = len(rows)
    winner = rows["winner"].to_numpy()
    mask = rows["win_mask"].to_numpy()
    out = np.zeros((n, len(metrics)), dtype=np.float64)
    for j, m in enumerate(metrics):
        name = m.name
        if name.startswith("win_"):
            out[:, j] = winner == int(name[4:])
        elif name == "shared":
            out[:, j] = (winner < 0) & ((mask & (mask - 1)) != 0)
        elif name == "fpa":
            out[:, j] = (winner == 0) - (winner >= 0) / players
        elif name in rows.columns:
            out[:, j] = rows[name].to_numpy()
        else:  # a seat counter: summed over the seats
            out[:, j] = sum(rows[f"{name}_{s}"].to_numpy() for s in range(players))
    return out


def metric_scale(metrics: list[Metric], players: int) -> np.ndarray:
    """Per-metric multipliers that make every per-game value a whole number: the first-player
    advantage is a multiple of 1/players, every other metric already is whole."""
    return np.array([float(players) if m.name == "fpa" else 1.0 for m in metrics])


class ArmMoments:
    """Running sums of per-game metric vectors of A arms (K metrics each), enough for every
    paired interval against arm 0 and every linear combination within an arm.

    sums: float64[A, K]; within: float64[A, K, K] (sum of x_a x_a^T); cross: float64[A, K, K]
    (sum of x_a x_0^T over the same games), all of the scaled values x * scale.

    scale (float64[K], from metric_scale): when given, the scaled values are whole numbers and
    every sum is exact (whole numbers below 2**53 are exact in float64, whatever the order of
    the additions), so chunks merge to the same bits in any chunking and any order."""

    def __init__(self, arms: int, metrics: int, scale: np.ndarray | None = None):
        self.n = 0
        self.exact = scale is not None
        self.scale = np.ones(metrics) if scale is None else np.asarray(scale, dtype=np.float64)
        self.sums = np.zeros((arms, metrics))
        self.within = np.zeros((arms, metrics, metrics))
        self.cross = np.zeros((arms, metrics, metrics))

    def add(self, x: np.ndarray) -> None:
        """x: float64[A, n, K], the same n games in every arm."""
        if self.exact:
            x = np.rint(x * self.scale)
        self.n += x.shape[1]
        self.sums += x.sum(axis=1)
        self.within += np.einsum("ank,anl->akl", x, x)
        self.cross += np.einsum("ank,nl->akl", x, x[0])

    def merge(self, other: ArmMoments) -> None:
        """Add the sums of other games (the same arms and metrics) to these."""
        self.n += other.n
        self.sums += other.sums
        self.within += other.within
        self.cross += other.cross

    def count(self, a: int, j: int) -> float:
        """The sum of metric j over arm a's games (a count, for rates)."""
        return float(self.sums[a, j] / self.scale[j])

    def mean(self, a: int) -> np.ndarray:
        return self.sums[a] / self.n / self.scale

    def cov(self, a: int, b: int | None = None) -> np.ndarray:
        """Sample covariance within arm a (b None) or between arm a and arm 0 (b == 0)."""
        n = self.n
        ma = self.sums[a] / n
        if b is None or b == a:
            s = self.within[a]
            mb = ma
        elif b == 0:
            s = self.cross[a]
            mb = self.sums[0] / n
        else:
            raise ValueError("cross moments are kept only against arm 0")
        return (s - n * np.outer(ma, mb)) / max(n - 1, 1) / np.outer(self.scale, self.scale)

    def linear(self, a: int, c: np.ndarray) -> tuple[float, float]:
        """Mean and standard error of c . x within arm a."""
        v = float(c @ self.cov(a) @ c)
        return float(c @ self.mean(a)), math.sqrt(max(v, 0.0) / self.n)

    def paired(self, a: int, c: np.ndarray, c0: np.ndarray | None = None) -> tuple[float, float]:
        """Mean and standard error of the per-game difference c . x_a - c0 . x_0."""
        c0 = c if c0 is None else c0
        v = float(c @ self.cov(a) @ c + c0 @ self.cov(0) @ c0 - 2 * c @ self.cov(a, 0) @ c0)
        d = float(c @ self.mean(a) - c0 @ self.mean(0))
        return d, math.sqrt(max(v, 0.0) / self.n)

    def unpaired(self, a: int, c: np.ndarray, c0: np.ndarray | None = None) -> tuple[float, float]:
        """As paired, but ignoring that the games share their random numbers (the standard
        error two independent runs of this size would give)."""
        c0 = c if c0 is None else c0
        v = float(c @ self.cov(a) @ c + c0 @ self.cov(0) @ c0)
        d = float(c @ self.mean(a) - c0 @ self.mean(0))
        return d, math.sqrt(max(v, 0.0) / self.n)


def t_interval(est: float, se: float, n: int, alpha: float = ALPHA) -> tuple[float, float, float]:
    """(low, high, two-sided p of est = 0) from scipy's t distribution with n - 1 df."""
    if se <= 0 or not np.isfinite(se):
        return est, est, (1.0 if est == 0 else 0.0)
    df = max(n - 1, 1)
    lo, hi = _st.t.interval(1 - alpha, df, loc=est, scale=se)
    p = 2 * _st.t.sf(abs(est) / se, df)
    return float(lo), float(hi), float(p)


# --------------------------------------------------------------------------------- running
@dataclass
class ArmRun:
    """Everything played for a set of arms on the same games."""

    spec: Any
    players: int
    arms: list[Arm]
    metrics: list[Metric]
    results: list[Any]  # one SimResult per arm (merged summary of all chunks, no rows)
    moments: ArmMoments
    seed: int
    games: int
    elapsed_s: float
    policies: list[str]
    rotate_seats: bool

    @property
    def index(self) -> dict[str, int]:
        return {m.name: j for j, m in enumerate(self.metrics)}


def resolve_arms(spec: Any, players: int, arms: list[Arm], rules_file: str | None, base_overrides):
    """Resolve every arm's rules before anything is played (bad arms fail at once)."""
    out = []
    for a in arms:
        over = {**(base_overrides or {}), **a.override_dict}
        out.append(spec.resolve_rules(list(a.variants), over, rules_file, players))
    return out


def play_arms_chunk(
    game: str,
    players: int,
    arm_rules: list[Any],
    seats: list,
    seed: int,
    first: int,
    n: int,
    rotate: bool,
    metrics: list[Metric],
    threads: int | None = None,
) -> tuple[list[Any], ArmMoments]:
    """Games first .. first + n - 1 under every arm's rules (the same random streams in every
    arm): (one Summary per arm, the ArmMoments of these games). The unit of work of a
    comparison on every backend; the rows are dropped here."""
    from simcore.chunks import play_chunk, rows_frame
    from simcore.games import get_game

    spec = get_game(game)
    block = np.zeros((len(arm_rules), n, len(metrics)))
    summaries = []
    for a, rules in enumerate(arm_rules):
        arm_seats = spec.resolve_seats(seats, rules)  # the weights in effect under the arm
        _, summary, rows = play_chunk(
            game, players, rules, arm_seats, seed, first, n, rotate, False, True, threads
        )
        block[a] = game_metrics(rows_frame(spec, rows, players), metrics, players)
        summaries.append(summary)
    moments = ArmMoments(len(arm_rules), len(metrics), metric_scale(metrics, players))
    moments.add(block)
    return summaries, moments


class ArmsJob:
    """Every arm of a comparison on games 0 .. games-1 of one seed, in chunks of game indices;
    a chunk is played under every arm by one task (play_arms_chunk), and the chunks' summaries
    and moments are merged in plan order. A simcore.jobs.Job (by its methods: this module
    imports simcore only when it runs)."""

    def __init__(self, spec, players, arms, arm_rules, seats, seed, games, *, rotate, chunk):
        from simcore.runner import SimJob

        self.spec, self.game, self.players = spec, spec.name, players
        self.arms, self.arm_rules, self.seats = list(arms), arm_rules, seats
        self.seed, self.games, self.rotate, self.chunk = int(seed), games, rotate, chunk
        self.metrics = metric_list(spec, players)
        self.moments = ArmMoments(len(arms), len(self.metrics), metric_scale(self.metrics, players))
        # one SimJob per arm keeps the arm's merged summary and makes its SimResult
        self.per_arm = [
            SimJob(spec, players, games, r, spec.resolve_seats(seats, r), seed, rotate_seats=rotate)
            for r in arm_rules
        ]
        self.total_games = games * len(arms)
        self.done_games = 0
        self.elapsed_s = 0.0

    def tasks(self, backend: str) -> list:
        from simcore.chunks import chunk_plan
        from simcore.jobs import Task

        # on Dask smaller tasks (unless a chunk size is given), to spread over the workers
        chunk = self.chunk or (DASK_CHUNK if backend == "dask" else DEFAULT_CHUNK)
        for job in self.per_arm:
            job.backend = backend
        args = (self.game, self.players, self.arm_rules, self.seats, self.seed)
        games = len(self.arms)  # games per game index
        return [
            (i, Task(play_arms_chunk, (*args, first, n, self.rotate, self.metrics), n * games))
            for i, (first, n) in enumerate(chunk_plan(0, self.games, chunk))
        ]

    def warm(self) -> None:
        self.per_arm[0].warm()

    def fold(self, i: int, result) -> bool:
        summaries, moments = result
        for job, summary in zip(self.per_arm, summaries):
            job.add(i, summary)
        self.moments.merge(moments)
        return False

    def result(self) -> ArmRun:
        results = []
        for job in self.per_arm:
            job.elapsed_s = self.elapsed_s
            results.append(job.result())
        return ArmRun(
            spec=self.spec,
            players=self.players,
            arms=self.arms,
            metrics=self.metrics,
            results=results,
            moments=self.moments,
            seed=self.seed,
            games=self.games,
            elapsed_s=self.elapsed_s,
            policies=[p.label for p in self.seats],
            rotate_seats=self.rotate,
        )


def arms_job(
    game: str | Any,
    players: int,
    arms: list[Arm],
    games: int,
    *,
    seed: int = 1,
    policies: str | list | None = None,
    rotate_seats: bool = False,
    rules_file: str | None = None,
    overrides: dict[str, Any] | None = None,
    chunk_size: int | None = None,
    version: str = "",
) -> ArmsJob:
    """Validate and resolve the arms (bad arms fail at once) into a job, without playing it."""
    from simcore.games import get_game
    from simcore.rulesbase import RulesError

    spec = get_game(game) if isinstance(game, str) else game
    spec.check_players(players)
    if not arms:
        raise RulesError("a comparison needs at least one arm")
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 2:
        raise RulesError(f"a comparison needs at least 2 games per arm, not {games}")
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise RulesError(f"--seed must be a whole number of 0 or more, not {seed}")
    if chunk_size is not None and chunk_size < 1:
        raise RulesError("chunk size must be at least 1")
    arm_rules = resolve_arms(spec, players, arms, rules_file, overrides)
    seats = policies if isinstance(policies, list) else spec.parse_policies(policies, players)
    return ArmsJob(
        spec,
        players,
        arms,
        arm_rules,
        seats,
        seed,
        int(games),
        rotate=rotate_seats,
        chunk=chunk_size,
    )


def run_arms(game: str | Any, players: int, arms: list[Arm], games: int, **kw: Any) -> ArmRun:
    """Play every arm on games 0 .. games-1 of `seed` (common random numbers), chunk by chunk.

    kw: seed, policies, rotate_seats, rules_file, overrides (rules fields set in every arm,
    under each arm's own overrides), chunk_size, version (as arms_job), and the run options
    backend, scheduler, workers, threads, progress (as simcore.jobs.run_jobs). The result
    is the same for every backend, number of workers and chunk size."""
    from simcore.jobs import run_jobs, split_run_options

    run_options, kw = split_run_options(kw)
    job = arms_job(game, players, arms, games, **kw)
    run_jobs([job], **run_options)
    return job.result()


# --------------------------------------------------------------------------------- tables
def _gap_vector(run: ArmRun, a: int) -> tuple[np.ndarray, int, int]:
    """Coefficients of (best seat's wins - worst seat's wins) of arm a, and the two seats."""
    wins = run.results[a].summary.seat_wins
    best, worst = int(np.argmax(wins)), int(np.argmin(wins))
    c = np.zeros(len(run.metrics))
    idx = run.index
    c[idx[f"win_{best}"]] += 1
    c[idx[f"win_{worst}"]] -= 1
    return c, best, worst


def _unit(k: int, j: int) -> np.ndarray:
    c = np.zeros(k)
    c[j] = 1.0
    return c


def arm_values(run: ArmRun, alpha: float = ALPHA) -> pd.DataFrame:
    """One row per (metric, arm): the arm's value with its interval (Wilson for rates, the
    multinomial gap interval of `simulate` for the largest gap, t for means)."""
    rows = []
    k = len(run.metrics)
    for a, arm in enumerate(run.arms):
        s = run.results[a].summary
        n = s.games
        bal = seat_balance(s.seat_wins, s.shared_wins, n, alpha) if run.players > 1 else None
        for j, m in enumerate(run.metrics):
            if m.name == "fpa":
                v = bal["first_player_advantage"]
                lo, hi = bal["first_player_advantage_ci"]
            elif m.kind == "rate":
                cnt = run.moments.count(a, j)
                v = cnt / n
                lo, hi = (float(x) for x in wilson(cnt, n, alpha))
            else:
                v, se = run.moments.linear(a, _unit(k, j))
                lo, hi, _ = t_interval(v, se, n, alpha)
            rows.append(
                {"metric": m.name, "arm": arm.label, "value": v, "ci_low": lo, "ci_high": hi}
            )
        if bal is not None:
            rows.append(
                {
                    "metric": "largest_gap",
                    "arm": arm.label,
                    "value": bal["largest_gap"],
                    "ci_low": bal["largest_gap_ci"][0],
                    "ci_high": bal["largest_gap_ci"][1],
                }
            )
    return pd.DataFrame(rows)


def _metric_defs(run: ArmRun) -> list[Metric]:
    out = list(run.metrics)
    if run.players > 1:
        i = [m.name for m in out].index("fpa") + 1
        out.insert(i, Metric("largest_gap", "largest seat gap", "rate", "wider", "narrower"))
    return out


def _constant(run: ArmRun, j: int) -> bool:
    mo = run.moments
    means = np.array([mo.mean(a)[j] for a in range(len(run.arms))])
    var = np.array([mo.cov(a)[j, j] for a in range(len(run.arms))])
    return bool(np.all(var <= 1e-12) and np.ptp(means) == 0)


def comparison_table(run: ArmRun, alpha: float = ALPHA, paired: bool = True) -> pd.DataFrame:
    """The tidy comparison table: one row per (metric, arm) with the arm's value and interval,
    and for every arm after the first the difference to the first arm with its paired interval,
    p-value, Holm-corrected p-value over the whole table, Cohen's h (rates) and a verdict.

    paired=False gives the intervals two independent runs would have (for illustration)."""
    vals = arm_values(run, alpha)
    k = len(run.metrics)
    idx = run.index
    defs = {m.name: m for m in _metric_defs(run)}
    records = []
    for m in _metric_defs(run):
        if m.name in idx and _constant(run, idx[m.name]):
            continue  # the same value in every game of every arm: nothing to compare
        base = vals[(vals.metric == m.name) & (vals.arm == run.arms[0].label)].iloc[0]
        for a, arm in enumerate(run.arms):
            row = vals[(vals.metric == m.name) & (vals.arm == arm.label)].iloc[0].to_dict()
            rec = {
                "metric": m.name,
                "label": m.label,
                "kind": m.kind,
                "arm": arm.label,
                "games": run.results[a].games,
                "value": row["value"],
                "ci_low": row["ci_low"],
                "ci_high": row["ci_high"],
                "diff": np.nan,
                "diff_low": np.nan,
                "diff_high": np.nan,
                "p_value": np.nan,
                "cohen_h": np.nan,
            }
            if a > 0:
                if m.name == "largest_gap":
                    c, _, _ = _gap_vector(run, a)
                    c0, _, _ = _gap_vector(run, 0)
                else:
                    c = c0 = _unit(k, idx[m.name])
                fn = run.moments.paired if paired else run.moments.unpaired
                # for the gap and the first-player advantage d equals the difference of the
                # seat_balance values: both are means of the same per-game quantities
                d, se = fn(a, c, c0)
                lo, hi, p = t_interval(d, se, run.moments.n, alpha)
                rec.update(diff=d, diff_low=lo, diff_high=hi, p_value=p)
                if m.kind == "rate" and m.name not in ("fpa", "largest_gap"):
                    rec["cohen_h"] = float(proportion_effectsize(row["value"], base["value"]))
            records.append(rec)
    df = pd.DataFrame(records)
    df["p_holm"] = np.nan
    has = df["p_value"].notna()
    if has.any():
        df.loc[has, "p_holm"] = multipletests(df.loc[has, "p_value"], alpha=alpha, method="holm")[1]
    df["significant"] = df["p_holm"] < alpha
    df["verdict"] = [
        verdict(defs[r.metric], r, run.arms[0].label, alpha, tests=int(has.sum()))
        if r.arm != run.arms[0].label
        else ""
        for r in df.itertuples()
    ]
    return df


# --------------------------------------------------------------------------------- words
def fmt_p(p: float) -> str:
    """'p < 0.001' or 'p = 0.041'."""
    if not np.isfinite(p):
        return "p = n/a"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.2g}" if p < 0.1 else f"p = {p:.2f}"


def _decimals(half_width: float, kind: str) -> int:
    """Two significant digits of the interval's half-width (in points for rates)."""
    hw = abs(half_width) * (100 if kind == "rate" else 1)
    if not np.isfinite(hw) or hw == 0:
        return 2 if kind != "rate" else 1
    return int(min(max(1 - math.floor(math.log10(hw)), 0), 4))


def _num(x: float, kind: str, dec: int, sign: bool = False) -> str:
    v = x * 100 if kind == "rate" else x
    return f"{v:+.{dec}f}" if sign else f"{v:.{dec}f}"


def _level(x: float, kind: str, dec: int) -> str:
    """A value of the metric itself: rates as percentages."""
    return f"{x * 100:.{dec}f}%" if kind == "rate" else f"{x:.{dec}f}"


def verdict(m: Metric, r: Any, base: str, alpha: float = ALPHA, tests: int = 1) -> str:
    """One plain-language line for one metric of one arm against the first arm, consistent with
    the numbers: a change is called only when the Holm-corrected p is below alpha, and then its
    interval (which excludes 0) is given in the direction of the change."""
    d, lo, hi = r.diff, r.diff_low, r.diff_high
    dec = _decimals((hi - lo) / 2, m.kind)
    pts = " points" if m.kind == "rate" else (f" {m.unit}" if m.unit else "")
    conf = f"{round((1 - alpha) * 100)}% CI"
    # '1.8 rounds longer', '2.1 points higher', '0.22 more per game'
    pts_before, pts_after = ("", f" {m.unit}") if m.unit == "per game" else (pts, "")
    before, after = _level(r.value - d, m.kind, dec), _level(r.value, m.kind, dec)
    if r.p_holm < alpha:
        word = m.more if d > 0 else m.less
        a, b = (lo, hi) if d > 0 else (-hi, -lo)
        return (
            f"{r.arm}: {m.label} {_num(abs(d), m.kind, dec)}{pts_before} {word}{pts_after} "
            f"than {base} "
            f"({before} -> {after}; {conf} {_num(a, m.kind, dec)} to {_num(b, m.kind, dec)}; "
            f"Holm {fmt_p(r.p_holm)})"
        )
    text = (
        f"{r.arm}: {m.label} unchanged ({_num(d, m.kind, dec, True)}{pts}, {conf} "
        f"{_num(lo, m.kind, dec, True)} to {_num(hi, m.kind, dec, True)}; {fmt_p(r.p_value)}"
    )
    if r.p_value < alpha:
        text += f", but Holm p = {r.p_holm:.2g} over the table's {tests} tests: not significant"
    return text + ")"


HEADLINE_METRICS = {"rounds": "", "largest_gap": "seat gap ", "fpa": "first-player advantage "}


def headlines(table: pd.DataFrame, alpha: float = ALPHA) -> list[str]:
    """One line per arm after the first: length, seat gap and first-player advantage, e.g.
    'no-chips: 1.8 rounds longer (95% CI 1.6 to 2.0); seat gap unchanged, p = 0.41'."""
    out = []
    arms = list(dict.fromkeys(table["arm"]))
    for arm in arms[1:]:
        parts = []
        for name, label in HEADLINE_METRICS.items():
            sel = table[(table.arm == arm) & (table.metric == name)]
            if sel.empty:
                continue
            r = sel.iloc[0]
            d = r["diff"]
            if r.p_holm < alpha:
                dec = _decimals((r.diff_high - r.diff_low) / 2, r.kind)
                lo, hi = (r.diff_low, r.diff_high) if d > 0 else (-r.diff_high, -r.diff_low)
                if name == "rounds":
                    what = "rounds " + ("longer" if d > 0 else "shorter")
                else:
                    what = "points " + (
                        ("wider" if d > 0 else "narrower")
                        if name == "largest_gap"
                        else ("larger" if d > 0 else "smaller")
                    )
                parts.append(
                    f"{label}{_num(abs(d), r.kind, dec)} {what} (95% CI "
                    f"{_num(lo, r.kind, dec)} to {_num(hi, r.kind, dec)})"
                )
            else:
                parts.append(f"{label or 'length '}unchanged, {fmt_p(r.p_value)}")
        out.append(f"{arm}: " + "; ".join(parts))
    return out


# --------------------------------------------------------------------------------- compare
@dataclass
class Comparison:
    """The result of compare(): the run, the tidy table and the verdicts."""

    run: ArmRun
    table: pd.DataFrame
    headlines: list[str]
    alpha: float = ALPHA
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        run = self.run
        return {
            "game": run.spec.name,
            "players": run.players,
            "games": run.games,
            "seed": run.seed,
            "policies": run.policies,
            "rotate_seats": run.rotate_seats,
            "arms": [
                {
                    "label": a.label,
                    "variants": list(a.variants),
                    "overrides": {k: str(v) for k, v in a.overrides},
                    "rules_hash": r.rules_hash,
                    "rules": r.resolved_rules,
                }
                for a, r in zip(run.arms, run.results)
            ],
            "alpha": self.alpha,
            "table": records(self.table),
            "headlines": self.headlines,
            "elapsed_s": run.elapsed_s,
        }


def records(df: pd.DataFrame) -> list[dict]:
    """DataFrame rows as JSON-ready dicts (NaN -> None, numpy scalars -> Python)."""
    out = []
    for row in df.to_dict(orient="records"):
        rec = {}
        for k, v in row.items():
            if hasattr(v, "item"):
                v = v.item()
            if isinstance(v, float) and not np.isfinite(v):
                v = None
            rec[k] = v
        out.append(rec)
    return out


def compare_plan(
    game: str | Any,
    players: int,
    arms: list[Arm],
    games: int,
    *,
    seed: int = 1,
    alpha: float = ALPHA,
    **kw: Any,
):
    """The comparison as a plan (simcore.jobs.Plan) to run with others; kw as arms_job."""
    from simcore.jobs import Plan
    from simcore.rulesbase import RulesError

    if len(arms) < 2:
        raise RulesError("a comparison needs at least two arms (the first is the baseline)")
    job = arms_job(game, players, unique_labels(arms), games, seed=seed, **kw)

    def finish() -> Comparison:
        run = job.result()
        table = comparison_table(run, alpha)
        return Comparison(run, table, headlines(table, alpha), alpha)

    return Plan([job], finish)


def compare(
    game: str | Any,
    players: int,
    arms: list[Arm],
    games: int,
    *,
    seed: int = 1,
    alpha: float = ALPHA,
    **kw: Any,
) -> Comparison:
    """Play every arm on the same games and compare each with the first (see module doc).

    kw: policies, rotate_seats, rules_file, overrides, chunk_size, version (as arms_job) and
    backend, scheduler, workers, threads, progress (as simcore.jobs.run_jobs)."""
    from simcore.jobs import run_plans, split_run_options

    run_options, kw = split_run_options(kw)
    (comp,) = run_plans(
        [compare_plan(game, players, arms, games, seed=seed, alpha=alpha, **kw)], **run_options
    )
    return comp


# --------------------------------------------------------------------------------- dice
def _die_label(faces: tuple[int, ...], named: dict[str, tuple[int, ...]]) -> str:
    for k, v in named.items():
        if tuple(v) == tuple(faces):
            return k
    return ",".join(map(str, faces))


def parse_dice(spec: Any, dice: list[str] | None) -> list[tuple[str, tuple[int, ...]]]:
    """The box's dice, then each given die ('beige' or '0,1,1,2,2,3'), validated; duplicates of
    a die already listed are dropped."""
    from simcore.rulesbase import RulesError, apply_overrides

    named = spec.named_values.get("die")
    if not named:
        raise RulesError(
            f"{spec.name} has no die rules field: the dice analysis is for sunken-city"
        )
    out = [(k, tuple(v)) for k, v in named.items()]
    for text in dice or []:
        rules = apply_overrides(spec.rules_cls(), {"die": text}, spec.named_values)
        faces = tuple(rules.die)
        if not faces:
            raise RulesError(f"--die '{text}': give a die name ({', '.join(named)}) or faces")
        rules.validate(None)
        if faces not in [f for _, f in out]:
            out.append((_die_label(faces, named), faces))
    return out


def rulebook_die(spec: Any, players: int) -> tuple[int, ...]:
    """The die the default rules use for this player count."""
    return tuple(spec.resolved(spec.rules_cls(), players)["die"])


def dice_plan(
    game: str | Any,
    player_counts: list[int],
    games: int,
    *,
    dice: list[str] | None = None,
    seed: int = 1,
    alpha: float = ALPHA,
    **kw: Any,
):
    """The dice analysis as a plan (simcore.jobs.Plan): one job per player count, to run
    together with others; kw as arms_job."""
    from simcore.games import get_game
    from simcore.jobs import Plan
    from simcore.rulesbase import RulesError

    spec = get_game(game) if isinstance(game, str) else game
    all_dice = parse_dice(spec, dice)
    if not player_counts:
        raise RulesError("--players: give at least one player count")
    for p in player_counts:
        spec.check_players(p)
    settings = {}
    for p in player_counts:
        book = rulebook_die(spec, p)
        # the rulebook's die first: every paired difference is against it
        order = sorted(all_dice, key=lambda d: d[1] != book)
        if order[0][1] != book:
            order.insert(0, (_die_label(book, spec.named_values["die"]), book))
        arms = [Arm(name, (), (("die", ",".join(map(str, f))),)) for name, f in order]
        settings[p] = (order, arms, arms_job(spec, p, arms, games, seed=seed, **kw))
    return Plan(
        [job for _, _, job in settings.values()],
        lambda: _dice_tables(settings, alpha),
    )


def dice_analysis(
    game: str | Any,
    player_counts: list[int],
    games: int,
    *,
    dice: list[str] | None = None,
    seed: int = 1,
    alpha: float = ALPHA,
    **kw: Any,
) -> dict[str, Any]:
    """Every die for every player count, each player count's dice on the same games (all
    player counts run together: on a cluster, every chunk of every die at once).

    Returns {'table': one row per (players, die): seat fairness chi-square p, largest gap and
    first-player advantage with intervals, length, spirit moves and adventurers sent home, the
    fairest die (smallest largest gap) and the rulebook's die marked; 'verdicts': one line per
    player count on whether the fairest die is significantly fairer than the rulebook's (paired
    gap difference, Holm-corrected over the player counts); 'runs'}.

    kw: as compare."""
    from simcore.jobs import run_plans, split_run_options

    run_options, kw = split_run_options(kw)
    plan = dice_plan(game, player_counts, games, dice=dice, seed=seed, alpha=alpha, **kw)
    (res,) = run_plans([plan], **run_options)
    return res


def _dice_tables(settings: dict[int, tuple], alpha: float) -> dict[str, Any]:
    """The dice table and verdicts from the played jobs: {players: (dice, arms, job)}."""
    rows, tests, runs = [], [], {}
    for p, (order, arms, job) in settings.items():
        run = job.result()
        runs[p] = run
        vals = arm_values(run, alpha)
        k = len(run.metrics)
        idx = run.index
        prow = []
        for a, (name, faces) in enumerate(order):
            s = run.results[a].summary
            bal = seat_balance(s.seat_wins, s.shared_wins, s.games, alpha)
            v = vals[vals.arm == arms[a].label].set_index("metric")
            rec = {
                "players": p,
                "die": name,
                "faces": ",".join(map(str, faces)),
                "rulebook": a == 0,
                "games": s.games,
                "chi2_p": bal["p_value"],
                "largest_gap": bal["largest_gap"],
                "gap_low": bal["largest_gap_ci"][0],
                "gap_high": bal["largest_gap_ci"][1],
                "gap_seats": f"{bal['largest_gap_seats'][0]}-{bal['largest_gap_seats'][1]}",
                "fpa": bal["first_player_advantage"],
                "fpa_low": bal["first_player_advantage_ci"][0],
                "fpa_high": bal["first_player_advantage_ci"][1],
                "rounds": v.loc["rounds", "value"],
                "rounds_low": v.loc["rounds", "ci_low"],
                "rounds_high": v.loc["rounds", "ci_high"],
            }
            for c in ("spirit_moves", "sent_home"):
                if c in idx:
                    rec[c] = v.loc[c, "value"]
                    rec[f"{c}_low"] = v.loc[c, "ci_low"]
                    rec[f"{c}_high"] = v.loc[c, "ci_high"]
            prow.append(rec)
        best = int(np.argmin([r["largest_gap"] for r in prow]))
        for a, r in enumerate(prow):
            r["fairest"] = a == best
        if best == 0:
            tests.append((p, prow, best, np.nan, np.nan, np.nan, np.nan))
        else:
            c, _, _ = _gap_vector(run, best)
            c0, _, _ = _gap_vector(run, 0)
            _, se = run.moments.paired(best, c, c0)
            d = prow[best]["largest_gap"] - prow[0]["largest_gap"]
            lo, hi, pv = t_interval(d, se, run.moments.n, alpha)
            tests.append((p, prow, best, d, lo, hi, pv))
        _ = k
        rows.extend(prow)
    pvals = [t[6] for t in tests if np.isfinite(t[6])]
    holm = list(multipletests(pvals, alpha=alpha, method="holm")[1]) if pvals else []
    verdicts = []
    for p, prow, best, d, lo, hi, pv in tests:
        b, book = prow[best], prow[0]
        head = (
            f"{p} players: fairest die {b['die']} (largest seat gap {b['largest_gap'] * 100:.1f} "
            f"points, 95% CI {b['gap_low'] * 100:.1f} to {b['gap_high'] * 100:.1f}; "
            f"chi-square {fmt_p(b['chi2_p'])})"
        )
        if best == 0:
            verdicts.append(head + " is the rulebook's die")
            for r in prow:
                r["fairer_than_rulebook"] = ""
            continue
        ph = holm.pop(0)
        sig = ph < alpha
        verdicts.append(
            head
            + f"; the rulebook's {book['die']} has {book['largest_gap'] * 100:.1f} points; "
            + f"{b['die']} is {'significantly' if sig else 'not significantly'} fairer "
            + f"(gap {d * 100:+.1f} points, 95% CI {lo * 100:+.1f} to {hi * 100:+.1f}; "
            + f"{fmt_p(pv)}, Holm p = {ph:.2g})"
        )
        for r in prow:
            r["fairer_than_rulebook"] = ("yes" if sig else "no") if r is b else ""
    return {"table": pd.DataFrame(rows), "verdicts": verdicts, "runs": runs}


# --------------------------------------------------------------------------------- sweep
def _field_type(spec: Any, key: str):
    return typing.get_type_hints(spec.rules_cls).get(key)


def parse_param(spec: Any, text: str) -> tuple[str, list[str]]:
    """'key=v1,v2,v3' -> (key, [values]). List-valued fields (die, streets, ...) separate their
    values with ';' ('die=0,1,1,2,2,3;1,2,2,3,3,4'), or give names ('die=beige,black')."""
    from simcore.rulesbase import RulesError

    if "=" not in text:
        raise RulesError(f"--param expects key=v1,v2,..., got '{text}'")
    key, vals = (t.strip() for t in text.split("=", 1))
    tp = _field_type(spec, key)
    if tp is None:
        fields = ", ".join(f.name for f in dataclasses.fields(spec.rules_cls))
        raise RulesError(f"--param '{key}' is not a rules field of {spec.name} (fields: {fields})")
    named = spec.named_values.get(key, {})
    if ";" in vals:
        values = [v.strip() for v in vals.split(";")]
    else:
        values = [v.strip() for v in vals.split(",")]
        if typing.get_origin(tp) is tuple and not all(v in named for v in values):
            raise RulesError(
                f"--param {key} takes lists: separate the values with ';' "
                f"(e.g. {key}=0,1,1,2,2,3;1,2,2,3,3,4)"
            )
    if any(v == "" for v in values):
        raise RulesError(f"--param '{text}': empty value")
    if len(set(values)) != len(values):
        raise RulesError(f"--param '{text}': a value is given twice")
    return key, values


MAX_SWEEP_SETTINGS = 64


def sweep_plan(
    game: str | Any,
    players: int,
    params: list[str],
    games: int,
    *,
    seed: int = 1,
    alpha: float = ALPHA,
    variants: list[str] | None = None,
    **kw: Any,
):
    """The sweep as a plan (simcore.jobs.Plan) to run with others; kw as arms_job."""
    from simcore.games import get_game
    from simcore.jobs import Plan
    from simcore.rulesbase import RulesError

    spec = get_game(game) if isinstance(game, str) else game
    if not params:
        raise RulesError("--param: give at least one key=v1,v2,...")
    if len(params) > 2:
        raise RulesError("a sweep takes one or two --param options")
    parsed = [parse_param(spec, p) for p in params]
    keys = [k for k, _ in parsed]
    if len(set(keys)) != len(keys):
        raise RulesError("--param: the same rules field is given twice")
    combos = list(itertools.product(*[v for _, v in parsed]))
    if len(combos) > MAX_SWEEP_SETTINGS:
        raise RulesError(
            f"a sweep of {len(combos)} settings is too large (at most {MAX_SWEEP_SETTINGS})"
        )
    arms = [
        Arm(
            ", ".join(f"{k}={v}" for k, v in zip(keys, c)),
            tuple(variants or ()),
            tuple(zip(keys, c)),
        )
        for c in combos
    ]
    if len(arms) == 1:
        job = arms_job(spec, players, arms, games, seed=seed, **kw)

        def comparison() -> Comparison:
            run = job.result()
            return Comparison(run, comparison_table(run, alpha), [], alpha)

        inner = Plan([job], comparison)
    else:
        inner = compare_plan(spec, players, arms, games, seed=seed, alpha=alpha, **kw)

    def finish() -> dict[str, Any]:
        comp = inner.finish()
        t = comp.table.copy()
        lookup = {a.label: dict(a.overrides) for a in comp.run.arms}
        for k in keys:
            t.insert(0, k, [lookup[a][k] for a in t["arm"]])
        return {"params": keys, "table": t, "comparison": comp}

    return Plan(inner.jobs, finish)


def sweep(
    game: str | Any,
    players: int,
    params: list[str],
    games: int,
    *,
    seed: int = 1,
    alpha: float = ALPHA,
    variants: list[str] | None = None,
    **kw: Any,
) -> dict[str, Any]:
    """Every combination of the parameter values, played on the same games.

    Returns {'params': [keys], 'table': tidy frame (one row per setting and metric: the param
    values, metric, value, ci_low, ci_high, diff to the first setting with its paired interval
    and Holm p), 'comparison': the Comparison}. kw: as compare."""
    from simcore.jobs import run_plans, split_run_options

    run_options, kw = split_run_options(kw)
    plan = sweep_plan(game, players, params, games, seed=seed, alpha=alpha, variants=variants, **kw)
    (res,) = run_plans([plan], **run_options)
    return res


def sweep_wide(table: pd.DataFrame, params: list[str], metrics: list[str]) -> pd.DataFrame:
    """One row per setting: each metric's value and interval side by side."""
    out = None
    for m in metrics:
        sel = table[table.metric == m][[*params, "value", "ci_low", "ci_high"]].rename(
            columns={"value": m, "ci_low": f"{m}_low", "ci_high": f"{m}_high"}
        )
        out = sel if out is None else out.merge(sel, on=params)
    return out.reset_index(drop=True)
