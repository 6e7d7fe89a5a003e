"""What the commands print and write: text tables and JSON of simulate, replay, compare, dice,
sweep, games and bench, from the results the Python API returns. `echo` prints one line.

The command line (cli.py) only parses options, calls one API function and hands its result to
one of these; everything they print is also available as a function of the result.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _installed_version
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.stats import fmt_p, p_text
from analysis.summary import records, result_json, run_keys, summarize
from simcore.base.errors import InputError, RulesError
from simcore.base.inputs import write_atomic
from simcore.base.results import (
    ArmRun,
    GameInfo,
    RobustnessResult,
    RunResult,
    SweepRun,
    Trace,
)
from simcore.base.verdicts import seat_verdicts

Echo = Callable[..., None]
PACKAGE = "balance-analyser"
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def package_version() -> str:
    """The package's version for the outputs' provenance: the installed distribution's, else
    (run from a checkout that is not installed) pyproject.toml's, else '0+unknown'."""
    try:
        return _installed_version(PACKAGE)
    except PackageNotFoundError:
        pass
    try:
        return str(tomllib.loads(PYPROJECT.read_text())["project"]["version"])
    except (OSError, ValueError, KeyError, TypeError):
        return "0+unknown"


def _four(v: float) -> str:
    return f"{v:.4f}"


def _json(obj: object, echo: Echo) -> None:
    echo(json.dumps(obj, indent=2, default=str))


# --------------------------------------------------------------------------------- games
def games(specs: dict[str, GameInfo], json_out: bool, echo: Echo) -> None:
    """`balance games`: seat ranges, variants, policies and rules fields with defaults."""
    info = [g.describe() for g in specs.values()]
    if json_out:
        echo(json.dumps(info, indent=2, default=list))
        return
    seed = [g for g in info if not g.get("reference")]
    ref = [g for g in info if g.get("reference")]
    for g in seed + ref:
        if ref and g is ref[0]:
            echo("")
            echo("reference games (small games with published exact answers that check the")
            echo("analyser end to end; docs/adding-a-game.md):")
        echo(f"{g['game']}: {g['title']}, {g['players'][0]}-{g['players'][1]} players")
        if g.get("reference"):
            echo(f"  known answers: {g['reference']}")
        echo("  variants (a [reading] replaces a reconstructed component):")
        kw = max(24, *(len(k) for k in [*g["variants"], *g["policies"]]))
        for k, d in g["variants"].items():
            reading = g["readings"].get(k)
            echo(f"    {k:<{kw}} {d}" + (f" [reading: {reading['replaces']}]" if reading else ""))
        echo(f"  policies (default {g['default_policy']}):")
        for k, p in g["policies"].items():
            w = ", ".join(f"{a}={b}" for a, b in p["weights"].items()) or "no weights"
            echo(f"    {k:<{kw}} {p['description']} [{w}]")
        if g.get("policy_note"):
            echo(f"    ({g['policy_note']})")
        echo("  rules fields (--set key=value):")
        defaults = [_default_text(f["default"]) for f in g["rules"]]
        fk = max(20, *(len(f["key"]) for f in g["rules"]))
        dk = max(28, *(len(d) for d in defaults if len(d) <= 40))
        for f, d in zip(g["rules"], defaults):
            if len(d) > 40:  # a long default (a board, a tile list) on a line of its own
                echo(f"    {f['key']:<{fk}} {f['description']}")
                echo(f"    {'':<{fk}} = {d}")
            else:
                echo(f"    {f['key']:<{fk}} = {d:<{dk}} {f['description']}")


def _default_text(d: object) -> str:
    """A rules field's default as on the command line (tuples comma-separated, pairs a/b)."""
    if isinstance(d, tuple):
        return ",".join("/".join(map(str, x)) if isinstance(x, tuple) else str(x) for x in d)
    return str(d)


# --------------------------------------------------------------------------------- simulate
def simulation(
    res: RunResult,
    variants: list[str],
    out_path: Path | None,
    json_out: bool,
    version: str,
    echo: Echo,
) -> None:
    """`balance simulate`: the rows written to out_path (when given), then the JSON object or
    the text summary. Checked mode with broken invariants is an error (after the rows)."""
    if out_path is not None:
        write_rows(res.rows, out_path)
    if res.checked and res.summary.errors:
        raise RulesError(f"checked mode: {res.summary.errors} games broke an invariant")
    if json_out:
        _json(simulation_json(res, version), echo)
        return
    t = summarize(res)
    echo(
        f"{res.title}: {res.players} players, {res.games:,} games, seed "
        f"{res.seed}, "
        + (f"variant {'+'.join(variants)}, " if variants else "")
        + f"rules {res.rules_hash}"
        + (", seats rotated" if res.rotate_seats else "")
    )
    if res.precision is not None:
        verdict = "reached" if res.precision_reached else "NOT reached (cap hit)"
        echo(
            f"precision {res.precision}: {verdict} after {res.games:,} games "
            f"(largest seat half-width {res.max_half_width:.4f})"
        )
    echo(_percent(t["seats"]).to_string(index=False, float_format=_four))
    if res.rotate_seats or len(set(res.policies)) > 1:
        echo("")
        echo(_percent(t["policies"]).to_string(index=False, float_format=_four))
    echo("(win rates in %; the JSON keeps shares)")
    _balance_lines(res, t, echo)
    _feel_lines(t["feel"], echo)
    if res.checked:
        echo(f"checked mode: the invariants held after every action of {res.games:,} games")
    echo(f"{res.games_per_s:,.0f} games/s on {res.threads} threads ({res.elapsed_s:.2f} s)")
    if out_path:
        echo(f"rows written to {out_path}")


def _percent(df: pd.DataFrame) -> pd.DataFrame:
    """A seats or policies table with its win rate and interval in % (two decimals)."""
    out = df.copy()
    for c in ("win_rate", "ci_low", "ci_high"):
        if c in out:
            out[c] = (100 * out[c]).map(lambda v: f"{v:.2f}")
    return out.rename(columns={"win_rate": "win %", "ci_low": "low %", "ci_high": "high %"})


def simulation_json(res: RunResult, version: str) -> dict[str, Any]:
    """simulate's JSON: the result (shares, analysis.summary.result_json) and its seat
    verdict records (points: simcore.base.verdicts)."""
    verdicts = seat_verdicts(res.players, res.summary.seat_wins, res.games) if res.games else []
    return {**result_json(res, version), "verdicts": [v.as_json() for v in verdicts]}


def _balance_lines(res: RunResult, t: dict[str, pd.DataFrame], echo: Echo) -> None:
    """Seat fairness (or the solo success rate), length and end reasons."""
    b = t["balance"].iloc[0]
    if res.players == 1:
        echo(f"solo: target reached in {100 * b.fair_share:.2f}% of the games")
    else:
        chi = fmt_p(b.p_value)
        echo(
            f"seat fairness chi-square {chi}; shared wins {100 * b.shared_win_rate:.2f}% "
            "(win rates in points; the seat verdicts below: simcore.base.verdicts)"
        )
        for v in seat_verdicts(res.players, res.summary.seat_wins, res.games):
            echo(f"  {v.sentence()}")
    length = t["length"].iloc[0]
    echo(
        f"length: mean {length.mean_rounds:.2f} rounds (median {length.median_rounds:.0f}, "
        f"5-95% {length.p5_rounds:.0f}-{length.p95_rounds:.0f}), {length.mean_turns:.1f} turns"
    )
    ends = ", ".join(
        f"{r} {c / res.games:.3f}" for r, c in zip(res.end_reasons, res.summary.end_reasons) if c
    )
    echo(f"end reasons: {ends}")


def _feel_lines(feel: pd.DataFrame, echo: Echo) -> None:
    """How the game feels (docs/comparisons.md): each metric with its 95% interval and the
    games it rests on; nothing in a solo game."""
    if feel.empty:
        return
    echo("how the game feels (95% CI; the games each rests on):")
    width = max(len(v) for v in feel["label"])
    for r in feel.itertuples():
        k, dec, pct = (100, 2, "%") if r.kind == "rate" else (1, 3, "")
        text = f"{r.value * k:.{dec}f}{pct} [{r.ci_low * k:.{dec}f}, {r.ci_high * k:.{dec}f}]"
        text = f"{r.label:<{width}}  {text:<26} {r.n:>10,} games"
        if r.metric == "margin":
            text += f"; median {r.p50:g} (10-90% {r.p10:g}-{r.p90:g})"
        echo(f"  {text}")


def simulation_partial(
    res: RunResult, checkpoint: str | None, json_out: bool, version: str, echo: Echo
) -> None:
    """An interrupted simulate: a line on stderr, then the summary of the games played,
    clearly marked as partial."""
    n = res.games_requested
    echo(
        f"PARTIAL RESULT: interrupted after {res.games:,} of {n:,} games"
        + (f"; continue with --checkpoint {checkpoint} --resume" if checkpoint else ""),
        err=True,
    )
    if res.games == 0:  # stopped before the first chunk finished: nothing to summarise
        if json_out:
            js = {"game": res.game, "players": res.players, "games": 0, "partial": True}
            _json({**js, "games_requested": n, "seed": res.seed}, echo)
        else:
            echo(f"PARTIAL: 0 of {n:,} games")
    elif json_out:
        _json(result_json(res, version), echo)
    else:
        echo(f"PARTIAL: {res.games:,} of {n:,} games")
        echo(_percent(summarize(res)["seats"]).to_string(index=False, float_format=_four))


def write_rows(df: pd.DataFrame, path: Path) -> None:
    """Result rows as .csv or .parquet, atomically."""
    if path.suffix == ".csv":
        write_atomic(path, lambda p: df.to_csv(p, index=False))
    else:
        write_atomic(path, lambda p: df.to_parquet(p))


# --------------------------------------------------------------------------------- replay
def replay(trace: Trace, fmt: str, out_path: Path | None, echo: Echo) -> None:
    """`balance replay`: the game as text or JSON lines, printed or written to out_path."""
    text = trace.text() if fmt == "text" else trace.jsonl()
    if out_path:
        write_atomic(out_path, lambda p: Path(p).write_text(text))
        echo(f"trace written to {out_path}")
    else:
        echo(text, nl=False)


# --------------------------------------------------------------------------------- compare
def _cell(r: dict[str, Any]) -> str:
    if r["kind"] == "rate":
        return f"{r['value'] * 100:.2f}% [{r['ci_low'] * 100:.2f}, {r['ci_high'] * 100:.2f}]"
    return f"{r['value']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]"


def _diff(r: dict[str, Any]) -> str:
    """The difference with the interval its call rests on (adjusted over the table)."""
    if r["diff"] != r["diff"]:  # the baseline arm
        return ""
    k = 100 if r["kind"] == "rate" else 1
    return f"{r['diff'] * k:+.3f} [{r['adj_low'] * k:+.3f}, {r['adj_high'] * k:+.3f}]"


def _optional(fmt: str) -> Callable[[float], str]:
    return lambda v: "" if v != v else format(v, fmt)


def comparison_text(table: pd.DataFrame, headlines: list[str], echo: Echo) -> None:
    """The comparison table (rates in %, differences of rates in points, each with the
    interval adjusted over the table's tests that its call rests on) and the verdicts."""
    tests = int(table["tests"].max()) if len(table) and table["tests"].max() > 0 else 1
    rows = table.to_dict("records")
    show = pd.DataFrame(
        {
            "metric": table["label"],
            "arm": table["arm"],
            "value [95% CI]": [_cell(r) for r in rows],
            f"diff [95% CI adj. over {tests}]": [_diff(r) for r in rows],
            "p": table["p_value"].map(lambda v: "" if v != v else p_text(v)),
            "adjusted p": table["p_adjusted"].map(lambda v: "" if v != v else p_text(v)),
            "h": table["cohen_h"].map(_optional("+.3f")),
        }
    )
    echo(show.to_string(index=False))
    echo("")
    echo(
        "verdicts (rates in percentage points; each interval and p adjusted over the "
        f"table's {tests} tests, Bonferroni: a change is called when its interval excludes 0):"
    )
    for line in headlines:
        echo(f"  {line}")
    echo("")
    for v in table["verdict"]:
        if v:
            echo(f"  {v}")


def compare(run: ArmRun, json_out: bool, echo: Echo) -> None:
    """`balance compare`: the comparison of a played ArmRun, as JSON or text."""
    from analysis.compare import comparison  # statsmodels: only for the commands that compare

    res = comparison(run)
    if json_out:
        _json(res.to_json(), echo)
        return
    echo(
        f"{run.spec.title}: {run.players} players, {run.games:,} games per arm on the same "
        f"games (seed {run.seed}); baseline {run.arms[0].label}"
    )
    for a, r in zip(run.arms, run.results):
        echo(f"  {a.label}: rules {r.rules_hash}")
    comparison_text(res.table, res.headlines, echo)
    echo(f"{run.elapsed_s:.1f} s")


# --------------------------------------------------------------------------------- robustness
def robustness(
    run: RobustnessResult, folder: Path | None, json_out: bool, version: str, echo: Echo
) -> None:
    """`balance robustness`: every verdict classified over the settings (JSON or text), and
    with a folder, robustness.json, .md and .html written into it; version: the package's
    (provenance, in both JSONs)."""
    from analysis.robustness import robustness as analyse
    from analysis.robustness import text
    from analysis.robustness_report import write_robustness

    a = analyse(run)
    if json_out:
        _json(a.to_json() | {"version": version}, echo)
    else:
        for line in text(a):
            echo(line)
    if folder is not None:
        paths = write_robustness(a, folder, version)
        if not json_out:
            echo(f"written: {paths['html']}, {paths['md']}, {paths['json']}")


# --------------------------------------------------------------------------------- dice
def dice(runs: dict[int, ArmRun], json_out: bool, echo: Echo) -> None:
    """`balance dice`: the dice table and verdicts of played dice ({players: ArmRun})."""
    from analysis.compare import dice_tables

    res = dice_tables(runs)
    t = res["table"]
    first = next(iter(runs.values()))
    spec, n, seed = first.spec, first.games, first.seed
    if json_out:
        js = run_keys(first, list(runs))
        js.update(table=records(t.drop(columns=["verdicts", "gap_excess_verdict"])))
        js.update(records=[v.as_json() for v in res["records"]], verdicts=res["verdicts"])
        _json(js, echo)
        return
    echo(f"{spec.title}: {n:,} games per die and player count on the same games (seed {seed})")
    pts = "{:+.1f}".format
    show = pd.DataFrame(
        {
            "players": t["players"],
            "die": [f"{d}{' *' if f else ''}" for d, f in zip(t["die"], t["fairest"])],
            "faces": t["faces"],
            "rulebook": t["rulebook"].map(lambda v: "yes" if v else ""),
            "chi2 p": t["chi2_p"].map(p_text),
            "gap, points [adj. 95% CI]": [
                f"{100 * r.largest_gap:.1f} [{100 * r.gap_low:.1f}, {100 * r.gap_high:.1f}]"
                for r in t.itertuples()
            ],
            "first-player adv., points [95% CI]": [
                f"{pts(100 * r.fpa)} [{pts(100 * r.fpa_low)}, {pts(100 * r.fpa_high)}]"
                for r in t.itertuples()
            ],
            "gap - fairest's [adj. 95% CI]": [
                ""
                if r.fairest
                else f"{pts(100 * r.gap_excess)} [{pts(100 * r.gap_excess_adj_low)}, "
                f"{pts(100 * r.gap_excess_adj_high)}]"
                for r in t.itertuples()
            ],
            "adjusted p": t["gap_excess_p_adjusted"].map(lambda v: "" if v != v else p_text(v)),
            "rounds": t["rounds"].map(lambda v: f"{v:.2f}"),
        }
    )
    for c in res["counters"]:
        show[c.replace("_", " ")] = t[c].map(lambda v: f"{v:.2f}")
    echo(show.to_string(index=False))
    echo(
        "(* the smallest largest seat gap in these games; win rates and gaps in points; the "
        "gap's interval adjusted over the pairs of seats; gap - fairest's: paired, adjusted "
        "over every die and player count compared (Bonferroni); a die is called the fairest "
        "only when every other die's adjusted interval lies above 0)"
    )
    for v in res["verdicts"]:
        echo(v)


# --------------------------------------------------------------------------------- sweep
DEFAULT_SWEEP_METRICS = ("largest_gap", "fpa", "rounds")


def _in_points(t: pd.DataFrame) -> pd.DataFrame:
    """A comparison table with its rates (values, intervals, differences) in points of 100,
    as a person reads them (the JSON keeps shares)."""
    out = t.copy()
    rate = out["kind"] == "rate"
    cols = [
        c
        for c in (
            "value",
            "ci_low",
            "ci_high",
            "diff",
            "diff_low",
            "diff_high",
            "adj_low",
            "adj_high",
        )
        if c in out
    ]
    out.loc[rate, cols] = out.loc[rate, cols] * 100
    return out


def sweep(
    swept: SweepRun, metrics: list[str] | None, out_path: Path | None, json_out: bool, echo: Echo
) -> None:
    """`balance sweep`: the metrics per setting of a played SweepRun (a line plot or a heatmap
    written to out_path when given), as JSON or text."""
    from analysis.compare import sweep_table, sweep_wide
    from analysis.plots import sweep_figure  # matplotlib: only for the sweep's plot

    res = sweep_table(swept)
    t, keys, run = res["table"], res["params"], swept.run
    known = list(dict.fromkeys(t["metric"]))
    metrics = metrics or [m for m in DEFAULT_SWEEP_METRICS if m in known]
    bad = [m for m in metrics if m not in known]
    if bad:
        raise InputError(f"--metric '{bad[0]}' is not a metric here (known: {', '.join(known)})")
    shown = _in_points(t)
    if out_path is not None:
        fig = sweep_figure(t, keys, metrics)  # the plot shows rates in points itself
        write_atomic(out_path, lambda p: fig.savefig(p, dpi=100, format=out_path.suffix[1:]))
    if json_out:
        js = run_keys(run, run.players)
        js.update(params=keys, table=records(t.drop(columns=["verdict"])))
        js["verdicts"] = [v.as_json() for v in res["comparison"].verdicts]
        _json({**js, "plot": str(out_path) if out_path else None}, echo)
        return
    echo(
        f"{run.spec.title}: {run.players} players, {run.games:,} games per setting on the same "
        f"games (seed {run.seed})"
    )
    echo(sweep_wide(shown, keys, metrics).to_string(index=False, float_format=_four))
    echo("(rates in percent, gaps and advantages in points; *_low/*_high: 95% CI)")
    for m in metrics:
        for v in t[(t.metric == m)]["verdict"]:
            if v:
                echo(f"  {v}")
    if out_path:
        echo(f"plot written to {out_path}")


# --------------------------------------------------------------------------------- bench
def search_curve_lines(curve: dict) -> list[str]:
    """The strength-for-cost table of `balance bench --full` (the 'search_curve' of
    simcore.studies.bench.run_curve): per game and player (`search` at a budget, `trained`,
    the search over it), the player's seat's win rate against the default preset with its
    Wilson 95% interval, its Elo equivalent and CPU ms a game, also as a multiple of a game
    of the preset alone."""
    if not curve:
        return []
    lines = [
        "",
        "strength for cost: one seat of the player against the game's default preset in the "
        "other seats, seats rotated, one thread",
        f"{'game':<20}{'players':>8}  {'player':<34}{'games':>7}{'win rate (95% CI)':>24}"
        f"{'fair':>7}{'Elo (95% CI)':>20}{'CPU ms/game':>13}{'x preset':>10}",
    ]
    for name, g in curve.items():
        for p in g["points"]:
            win = f"{100 * p['win_rate']:.1f}% ({100 * p['ci_low']:.1f}-{100 * p['ci_high']:.1f})"
            elo = f"{p['elo']:+.0f} ({p['elo_low']:+.0f} to {p['elo_high']:+.0f})"
            player = p.get("player", f"search:budget={p['budget']}")
            lines.append(
                f"{name:<20}{g['players']:>8}  {player:<34}{p['games']:>7,}{win:>24}"
                f"{100 * p['fair']:>6.1f}%{elo:>20}{p['cpu_ms_per_game']:>13.2f}"
                f"{p['cost_ratio']:>10,.1f}"
            )
    lines.append(
        "Elo: 400 log10(p / (1 - p)) - 400 log10(f / (1 - f)) for win rate p and fair share f "
        "(the outright wins left after shared ones, split evenly): the rating gap that turns a "
        "fair seat's odds into the player's seat's; 0 = as strong as the preset, +200 = odds "
        "3.2 times a fair seat's. x preset: CPU a game over that of the preset in every seat."
    )
    return lines


def bench(res: dict, json_out: bool, echo: Echo) -> None:
    """`balance bench`: the strength-for-cost table when measured (--full); with --json the
    measurements (printed as they were made) into bench.json."""
    for line in search_curve_lines(res.get("search_curve", {})):
        echo(line)
    if json_out:
        write_atomic(Path("bench.json"), lambda p: Path(p).write_text(json.dumps(res, indent=2)))
        echo("wrote bench.json")


def curve_games_label(settings: dict) -> str:
    """The learning curve's x axis, from a provenance's settings: what the training's games
    were (in short what its `method` says; the analysis reads only the provenance)."""
    league = settings.get("league", 0.0)
    if settings.get("expert", 0):
        return "games of Expert Iteration"
    if league >= 1.0:
        return "games of one learning seat against the base player"
    if league > 0.0:
        return f"games (self-play; {league:g} of them against the base player)"
    return "games of self-play"


def train(res: Any, out_path: Path | None, echo: Echo) -> None:
    """`balance train`: where the model went, its CPU time and checksum, and the learning
    curve when measured (--curve; a plot written to out_path when given)."""
    solo = res.provenance["players"] == 1
    for p in res.curve or []:
        over = f"the base player's success ({p['fair']:.1%})" if solo else "a fair seat"
        echo(
            f"  after {p['games_trained']:>10,} games: {100 * p['win_rate']:5.1f}% "
            f"({100 * p['ci_low']:.1f}-{100 * p['ci_high']:.1f}) against the base player, "
            f"Elo {p['elo']:+.0f} over {over} ({p['games']:,} games)"
        )
    if out_path is not None and res.curve:
        from analysis.plots import learning_curve, new_figure

        fig, ax = new_figure((6.0, 3.6))
        title = f"{res.provenance['game']}, {res.provenance['players']} players: learning curve"
        games = curve_games_label(res.provenance.get("settings", {}))
        learning_curve(res.curve, res.provenance["players"], ax, title, games)
        fig.tight_layout()
        write_atomic(out_path, lambda p: fig.savefig(p, dpi=100, format=out_path.suffix[1:]))
        echo(f"learning curve written to {out_path}")
    echo(f"{res.out}: {res.provenance['cpu_seconds']} s CPU, sha256 {res.sha256}")
