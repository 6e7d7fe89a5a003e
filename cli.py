"""`balance`: the command line. Commands only parse options and call the Python API.

Bad input of any kind ends with one line on stderr ("error: ...") and exit status 2.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from contextlib import contextmanager
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _pkg_version
from pathlib import Path
from typing import Annotated

import typer

try:  # typer >= 0.20 carries its own copy of click
    from typer._click import exceptions as _cx
except ImportError:  # pragma: no cover - older typer on click
    import click.exceptions as _cx  # type: ignore[no-redef]

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Monte Carlo rules-balance analyser for board games.",
    pretty_exceptions_enable=False,
)


class UserError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


def package_version() -> str:
    try:
        return _pkg_version("balance-analyser")
    except PackageNotFoundError:
        return "0+unknown"


def parse_count(text: str, what: str = "--games") -> int:
    """'100000', '1e6', '1_000_000' -> int >= 1."""
    t = str(text).strip().replace("_", "")
    try:
        v = float(t)
    except ValueError:
        raise UserError(
            f"{what} must be a whole number such as 1000, 1e6 or 1_000_000, not '{text}'"
        ) from None
    if v != v or v in (float("inf"), float("-inf")) or not v.is_integer():
        raise UserError(f"{what} must be a whole number, not '{text}'")
    if v < 1:
        raise UserError(f"{what} must be at least 1, not '{text}'")
    return int(v)


def check_out_path(path: str, suffixes: tuple[str, ...]) -> Path:
    p = Path(path)
    if p.is_dir():
        raise UserError(f"--out '{path}' is a directory; give a file name")
    if p.suffix.lower() not in suffixes:
        raise UserError(f"--out '{path}' must end in {' or '.join(suffixes)}")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise UserError(f"--out '{path}': folder '{parent}' does not exist")
    if not os.access(parent, os.W_OK):
        raise UserError(f"--out '{path}': folder '{parent}' is not writable")
    return p


def write_atomic(path: Path, write) -> None:
    """Write via a temporary file in the same folder, then rename: no partial output file."""
    fd, tmp = tempfile.mkstemp(
        dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}.", suffix=path.suffix
    )
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


@contextmanager
def interrupt_exits():
    """Ctrl-C (or SIGTERM) while a command plays its games: one line on stderr, status 130,
    and no output file (the files are written only after the games)."""
    try:
        yield
    except KeyboardInterrupt:
        sys.stderr.write("\nerror: interrupted; no output file was written\n")
        raise typer.Exit(130) from None


GameArg = Annotated[str, typer.Argument(help="game name (see `balance games`)")]
PlayersOpt = Annotated[int, typer.Option("--players", "-n", help="number of players")]
VariantOpt = Annotated[
    list[str] | None,
    typer.Option("--variant", "-v", help="named variant; repeat or join with '+' (short+no-chips)"),
]
SetOpt = Annotated[
    list[str] | None, typer.Option("--set", help="override one rules field: key=value (repeatable)")
]
RulesFileOpt = Annotated[
    str | None,
    typer.Option("--rules-file", help="TOML file of [variant.NAME] tables of rules fields"),
]
PolicyOpt = Annotated[
    str | None,
    typer.Option("--policy", help="policy per seat: random,random or name:weight=value,..."),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="random seed (0 or more)")]
BackendOpt = Annotated[
    str, typer.Option("--backend", help="local (numba threads) or dask (see docs/cluster.md)")
]
SchedulerOpt = Annotated[
    str | None, typer.Option("--scheduler", help="address of a running Dask scheduler")
]
WorkersOpt = Annotated[
    int | None, typer.Option("--workers", help="start a local Dask cluster of N workers")
]


def _common(game: str, players: int, variant, set_, rules_file, policy):
    from simcore.games import get_game
    from simcore.rulesbase import parse_set_options

    spec = get_game(game)
    spec.check_players(players)
    overrides = parse_set_options(set_ or [])
    rules = spec.resolve_rules(variant or [], overrides, rules_file, players)
    seats = spec.parse_policies(policy, players)
    return spec, overrides, rules, seats


@app.command()
def games(
    json_out: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """List the games: seat ranges, variants, policies and rules fields with defaults."""
    from simcore.games import all_games

    info = [g.describe() for g in all_games().values()]
    if json_out:
        typer.echo(json.dumps(info, indent=2, default=list))
        return
    for g in info:
        typer.echo(f"{g['game']}: {g['title']}, {g['players'][0]}-{g['players'][1]} players")
        typer.echo("  variants:")
        for k, d in g["variants"].items():
            typer.echo(f"    {k:<24} {d}")
        typer.echo(f"  policies (default {g['default_policy']}):")
        for k, p in g["policies"].items():
            w = ", ".join(f"{a}={b}" for a, b in p["weights"].items()) or "no weights"
            typer.echo(f"    {k:<24} {p['description']} [{w}]")
        if g.get("policy_note"):
            typer.echo(f"    ({g['policy_note']})")
        typer.echo("  rules fields (--set key=value):")
        for f in g["rules"]:
            d = f["default"]
            if isinstance(d, tuple):
                d = ",".join("/".join(map(str, x)) if isinstance(x, tuple) else str(x) for x in d)
            typer.echo(f"    {f['key']:<20} = {str(d):<28} {f['description']}")


@app.command()
def simulate(
    game: GameArg,
    players: PlayersOpt = 3,
    games_: Annotated[
        str | None,
        typer.Option("--games", "-g", help="games to play (1e6 ok); the cap with --precision"),
    ] = None,
    variant: VariantOpt = None,
    set_: SetOpt = None,
    rules_file: RulesFileOpt = None,
    policy: PolicyOpt = None,
    rotate_seats: Annotated[
        bool, typer.Option("--rotate-seats", help="rotate the policy list over the seats")
    ] = False,
    seed: SeedOpt = 0,
    threads: Annotated[int | None, typer.Option("--threads", help="worker threads")] = None,
    precision: Annotated[
        float | None,
        typer.Option(
            "--precision", help="play until every seat's 95%% CI half-width is at most this"
        ),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="assert invariants after every action")
    ] = False,
    out: Annotated[
        str | None, typer.Option("--out", help="write per-game rows (.csv/.parquet)")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    checkpoint: Annotated[
        str | None, typer.Option("--checkpoint", help="save progress to FILE as the run goes")
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="continue the run saved in --checkpoint")
    ] = False,
) -> None:
    """Play many games and report win rates per seat and policy, length and end reasons."""
    from analysis.summary import result_json, summarize
    from simcore.runner import Interrupted
    from simcore.runner import simulate as run

    if precision is not None and not (0 < precision < 0.5):
        raise UserError(f"--precision must lie between 0 and 0.5, not {precision}")
    if games_ is None:
        games_ = "1e8" if precision is not None else "10000"
    n = parse_count(games_)
    spec, overrides, rules, seats = _common(game, players, variant, set_, rules_file, policy)
    out_path = check_out_path(out, (".csv", ".parquet")) if out else None
    if out_path and out_path.suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UserError(
                "--out .parquet needs pyarrow (pip install pyarrow); use .csv instead"
            ) from None
    run_kwargs = dict(
        variants=variant or [],
        overrides=overrides,
        rules_file=rules_file,
        policies=seats,
        seed=seed,
        threads=threads,
        rotate_seats=rotate_seats,
        checked=check,
        keep_rows=out_path is not None,
        progress=sys.stderr.isatty() and not json_out,
        version=package_version(),
        precision=precision,
        backend=backend,
        scheduler=scheduler,
        workers=workers,
        checkpoint=checkpoint,
        resume=resume,
    )
    try:
        res = run(spec, players, n, **run_kwargs)
    except Interrupted as stop:
        # the partial summary, clearly marked; no output file is written
        res = stop.result
        sys.stderr.write(
            f"PARTIAL RESULT: interrupted after {res.games:,} of {n:,} games"
            + (f"; continue with --checkpoint {checkpoint} --resume" if checkpoint else "")
            + "\n"
        )
        if res.games == 0:  # stopped before the first chunk finished: nothing to summarise
            if json_out:
                js = {"game": spec.name, "players": players, "games": 0, "partial": True}
                typer.echo(json.dumps({**js, "games_requested": n, "seed": seed}, indent=2))
            else:
                typer.echo(f"PARTIAL: 0 of {n:,} games")
            raise typer.Exit(130) from None
        t = summarize(res)
        if json_out:
            typer.echo(json.dumps(result_json(res, package_version()), indent=2))
        else:
            typer.echo(f"PARTIAL: {res.games:,} of {n:,} games")
            typer.echo(t["seats"].to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        raise typer.Exit(130) from None
    if out_path is not None:
        df = res.rows
        write_atomic(
            out_path,
            (lambda p: df.to_csv(p, index=False))
            if out_path.suffix == ".csv"
            else (lambda p: df.to_parquet(p)),
        )
    if check and res.summary.errors:
        raise UserError(f"checked mode: {res.summary.errors} games broke an invariant")
    if json_out:
        typer.echo(json.dumps(result_json(res, package_version()), indent=2))
        return
    t = summarize(res)
    played = res.games
    typer.echo(
        f"{spec.title}: {players} players, {played:,} games, seed {seed}, "
        + (f"variant {'+'.join(variant)}, " if variant else "")
        + f"rules {res.rules_hash}"
        + (", seats rotated" if rotate_seats else "")
    )
    if precision is not None:
        verdict = "reached" if res.max_half_width <= precision else "NOT reached (cap hit)"
        typer.echo(
            f"precision {precision}: {verdict} after {played:,} games "
            f"(largest seat half-width {res.max_half_width:.4f})"
        )
    typer.echo(t["seats"].to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    if rotate_seats or len(set(res.policies)) > 1:
        typer.echo("")
        typer.echo(t["policies"].to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    b = t["balance"].iloc[0]
    if players == 1:
        typer.echo(f"solo: target reached in {b.fair_share:.4f} of the games")
    else:
        _balance_line(b)
    length = t["length"].iloc[0]
    typer.echo(
        f"length: mean {length.mean_rounds:.2f} rounds (median {length.median_rounds:.0f}, "
        f"5-95% {length.p5_rounds:.0f}-{length.p95_rounds:.0f}), {length.mean_turns:.1f} turns"
    )
    ends = ", ".join(
        f"{r} {c / played:.3f}" for r, c in zip(res.end_reasons, res.summary.end_reasons) if c
    )
    typer.echo(f"end reasons: {ends}")
    typer.echo(f"{res.games_per_s:,.0f} games/s on {res.threads} threads ({res.elapsed_s:.2f} s)")
    if out_path:
        typer.echo(f"rows written to {out_path}")


def _balance_line(b) -> None:
    fpa_lo, fpa_hi = b.first_player_advantage_ci
    gap_lo, gap_hi = b.largest_gap_ci
    typer.echo(
        f"seat fairness chi-square p = {b.p_value:.3g}; first-player advantage "
        f"{b.first_player_advantage:+.4f} (95% CI {fpa_lo:+.4f} to {fpa_hi:+.4f}); largest seat "
        f"gap {b.largest_gap:.4f} ({gap_lo:.4f} to {gap_hi:.4f}); shared wins "
        f"{b.shared_win_rate:.4f}"
    )


@app.command()
def replay(
    game: GameArg,
    players: PlayersOpt = 3,
    seed: SeedOpt = 0,
    game_index: Annotated[int, typer.Option("--game", help="game index within the seed")] = 0,
    variant: VariantOpt = None,
    set_: SetOpt = None,
    rules_file: RulesFileOpt = None,
    policy: PolicyOpt = None,
    rotate_seats: Annotated[bool, typer.Option("--rotate-seats")] = False,
    fmt: Annotated[str, typer.Option("--format", help="text or jsonl")] = "text",
    out: Annotated[str | None, typer.Option("--out", help="write to a file")] = None,
) -> None:
    """Replay one game move by move (the same game as index --game of `simulate --seed`)."""
    if fmt not in ("text", "jsonl"):
        raise UserError(f"--format must be text or jsonl, not '{fmt}'")
    if seed < 0:
        raise UserError(f"--seed must be 0 or more, not {seed}")
    if game_index < 0:
        raise UserError(f"--game must be 0 or more, not {game_index}")
    spec, _, rules, seats = _common(game, players, variant, set_, rules_file, policy)
    out_path = check_out_path(out, (".txt", ".jsonl", ".json")) if out else None
    trace = spec.replay(
        rules,
        players,
        seats,
        seed,
        game_index,
        rotate=rotate_seats,
        checked=True,
        version=package_version(),
    )
    text = trace.text() if fmt == "text" else trace.jsonl()
    if out_path:
        write_atomic(out_path, lambda p: Path(p).write_text(text))
        typer.echo(f"trace written to {out_path}")
    else:
        typer.echo(text, nl=False)


@app.command()
def bench(
    game: Annotated[str | None, typer.Argument(help="game (default: all)")] = None,
    games_: Annotated[str, typer.Option("--games", "-g", help="games per measurement")] = "100000",
    runs: Annotated[int, typer.Option("--runs", help="timed runs (median reported)")] = 5,
    json_out: Annotated[bool, typer.Option("--json", help="also write bench.json")] = False,
    policy: Annotated[
        str | None,
        typer.Option("--policy", help="one policy for every seat (default: each game's)"),
    ] = None,
    full: Annotated[
        bool,
        typer.Option("--full", help="also plain-Python ratio, cold/warm start, peak memory"),
    ] = False,
) -> None:
    """Measure games per second (1 and all threads) with the default players."""
    from simcore.bench import run_bench

    n = parse_count(games_)
    if runs < 1:
        raise UserError("--runs must be at least 1")
    res = run_bench(game, n, runs, echo=typer.echo, policy=policy)
    if full:
        from simcore.bench import BenchError, run_full

        try:
            res["full"] = run_full(game, echo=typer.echo, policy=policy, bench=res)
        except BenchError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(1) from None
    if json_out:
        Path("bench.json").write_text(json.dumps(res, indent=2))
        typer.echo("wrote bench.json")


def _player_counts(text: str) -> list[int]:
    """'2,3,4' -> [2, 3, 4] (whole numbers, no repeats)."""
    out = []
    for part in str(text).split(","):
        part = part.strip()
        if not part.isdigit():
            raise UserError(
                f"--players must be a list of player counts such as 2,3,4, not '{text}'"
            )
        if int(part) in out:
            raise UserError(f"--players lists {part} twice")
        out.append(int(part))
    return out


def _fmt_cell(r) -> str:
    if r.kind == "rate":
        return f"{r.value * 100:.2f}% [{r.ci_low * 100:.2f}, {r.ci_high * 100:.2f}]"
    return f"{r.value:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]"


def _fmt_diff(r) -> str:
    if r.diff != r.diff:  # the baseline arm
        return ""
    k = 100 if r.kind == "rate" else 1
    return f"{r.diff * k:+.3f} [{r.diff_low * k:+.3f}, {r.diff_high * k:+.3f}]"


def _print_comparison(table, headlines) -> None:
    """The comparison table (rates in %, differences of rates in points) and the verdicts."""
    import pandas as pd

    show = pd.DataFrame(
        {
            "metric": table["label"],
            "arm": table["arm"],
            "value [95% CI]": [_fmt_cell(r) for r in table.itertuples()],
            "diff [paired 95% CI]": [_fmt_diff(r) for r in table.itertuples()],
            "p": table["p_value"].map(lambda v: "" if v != v else f"{v:.2g}"),
            "Holm p": table["p_holm"].map(lambda v: "" if v != v else f"{v:.2g}"),
            "h": table["cohen_h"].map(lambda v: "" if v != v else f"{v:+.3f}"),
        }
    )
    typer.echo(show.to_string(index=False))
    typer.echo("")
    typer.echo("verdicts (rates in percentage points; a change is called when Holm p < 0.05):")
    for line in headlines:
        typer.echo(f"  {line}")
    typer.echo("")
    for v in table["verdict"]:
        if v:
            typer.echo(f"  {v}")


GamesOpt = Annotated[str, typer.Option("--games", "-g", help="games per arm (1e4 ok)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print one JSON object")]
ThreadsOpt = Annotated[int | None, typer.Option("--threads", help="worker threads")]


@app.command()
def compare(
    game: GameArg,
    players: PlayersOpt = 3,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            help="one arm per option (short+no-chips is one arm); the first is the baseline",
        ),
    ] = None,
    set_arm: Annotated[
        list[str] | None,
        typer.Option("--set-arm", help="an arm of rules fields: 'key=v,key2=v' (repeatable)"),
    ] = None,
    set_: Annotated[
        list[str] | None, typer.Option("--set", help="a rules field set in every arm: key=value")
    ] = None,
    rules_file: RulesFileOpt = None,
    policy: PolicyOpt = None,
    rotate_seats: Annotated[bool, typer.Option("--rotate-seats")] = False,
    games_: GamesOpt = "20000",
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    json_out: JsonOpt = False,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Compare arms (variants, --set-arm settings) on the same games: paired differences."""
    from analysis.compare import compare as run_compare
    from analysis.compare import set_arm as make_set_arm
    from analysis.compare import variant_arm
    from simcore.games import get_game
    from simcore.rulesbase import parse_set_options

    n = parse_count(games_)
    if n < 2:
        raise UserError("--games must be at least 2 for a comparison")
    if seed < 0:
        raise UserError(f"--seed must be 0 or more, not {seed}")
    spec = get_game(game)
    spec.check_players(players)
    arms = [variant_arm(v) for v in variant or []]
    arms += [make_set_arm(t) for t in set_arm or []]
    if not variant:
        arms.insert(0, variant_arm("base"))  # --set-arm alone: compared with the rulebook
    if len(arms) < 2:
        raise UserError("compare needs at least two arms: give --variant twice or a --set-arm")
    with interrupt_exits():
        res = run_compare(
            spec,
            players,
            arms,
            n,
            seed=seed,
            policies=policy,
            rotate_seats=rotate_seats,
            rules_file=rules_file,
            overrides=parse_set_options(set_ or []),
            threads=threads,
            progress=sys.stderr.isatty() and not json_out,
            version=package_version(),
            backend=backend,
            scheduler=scheduler,
            workers=workers,
        )
    if json_out:
        typer.echo(json.dumps(res.to_json(), indent=2, default=str))
        return
    run = res.run
    typer.echo(
        f"{spec.title}: {players} players, {n:,} games per arm on the same games (seed {seed}); "
        f"baseline {run.arms[0].label}"
    )
    for a, r in zip(run.arms, run.results):
        typer.echo(f"  {a.label}: rules {r.rules_hash}")
    _print_comparison(res.table, res.headlines)
    typer.echo(f"{run.elapsed_s:.1f} s")


@app.command()
def dice(
    game: GameArg,
    players: Annotated[str, typer.Option("--players", "-n", help="player counts, e.g. 2,3,4")] = "",
    die: Annotated[
        list[str] | None,
        typer.Option("--die", help="another die: a name or faces such as 0,1,1,2,2,3 (repeatable)"),
    ] = None,
    set_: SetOpt = None,
    policy: PolicyOpt = None,
    games_: Annotated[
        str, typer.Option("--games", "-g", help="games per die and player count")
    ] = "20000",
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    json_out: JsonOpt = False,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Every die of the box (and any given) for every player count: seat fairness, length."""
    from analysis.compare import dice_analysis, records
    from simcore.games import get_game
    from simcore.rulesbase import parse_set_options

    n = parse_count(games_)
    if n < 2:
        raise UserError("--games must be at least 2")
    if seed < 0:
        raise UserError(f"--seed must be 0 or more, not {seed}")
    spec = get_game(game)
    counts = (
        _player_counts(players) if players else list(range(spec.min_players, spec.max_players + 1))
    )
    overrides = parse_set_options(set_ or [])
    if "die" in overrides:
        raise UserError("--set die=... is what --die is for")
    with interrupt_exits():
        res = dice_analysis(
            spec,
            counts,
            n,
            dice=die,
            seed=seed,
            policies=policy,
            overrides=overrides,
            threads=threads,
            progress=sys.stderr.isatty() and not json_out,
            version=package_version(),
            backend=backend,
            scheduler=scheduler,
            workers=workers,
        )
    t = res["table"]
    if json_out:
        js = {
            "game": spec.name,
            "games": n,
            "seed": seed,
            "table": records(t),
            "verdicts": res["verdicts"],
        }
        typer.echo(json.dumps(js, indent=2, default=str))
        return
    typer.echo(
        f"{spec.title}: {n:,} games per die and player count on the same games (seed {seed})"
    )
    import pandas as pd

    show = pd.DataFrame(
        {
            "players": t["players"],
            "die": [f"{d}{' *' if f else ''}" for d, f in zip(t["die"], t["fairest"])],
            "faces": t["faces"],
            "rulebook": t["rulebook"].map(lambda v: "yes" if v else ""),
            "chi2 p": t["chi2_p"].map(lambda v: f"{v:.2g}"),
            "gap [95% CI]": [
                f"{r.largest_gap:.4f} [{r.gap_low:.4f}, {r.gap_high:.4f}]" for r in t.itertuples()
            ],
            "first-player adv. [95% CI]": [
                f"{r.fpa:+.4f} [{r.fpa_low:+.4f}, {r.fpa_high:+.4f}]" for r in t.itertuples()
            ],
            "rounds": t["rounds"].map(lambda v: f"{v:.2f}"),
        }
    )
    for c in ("spirit_moves", "sent_home"):
        if c in t:
            show[c.replace("_", " ")] = t[c].map(lambda v: f"{v:.2f}")
    typer.echo(show.to_string(index=False))
    typer.echo("(* the fairest die: smallest largest seat gap)")
    for v in res["verdicts"]:
        typer.echo(v)


@app.command()
def sweep(
    game: GameArg,
    players: PlayersOpt = 3,
    param: Annotated[
        list[str] | None,
        typer.Option("--param", help="key=v1,v2,... (lists: key=a,b;c,d); one or two"),
    ] = None,
    variant: VariantOpt = None,
    set_: SetOpt = None,
    rules_file: RulesFileOpt = None,
    policy: PolicyOpt = None,
    metric: Annotated[
        list[str] | None,
        typer.Option("--metric", help="metrics to show/plot (default largest_gap, fpa, rounds)"),
    ] = None,
    games_: Annotated[str, typer.Option("--games", "-g", help="games per setting")] = "10000",
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    json_out: JsonOpt = False,
    out: Annotated[
        str | None, typer.Option("--out", help="write the plot (.png/.svg/.pdf)")
    ] = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Metrics per parameter value on the same games; a line plot or a heatmap with --out."""
    from analysis.compare import records, sweep_wide
    from analysis.compare import sweep as run_sweep
    from simcore.games import get_game
    from simcore.rulesbase import parse_set_options

    n = parse_count(games_)
    if seed < 0:
        raise UserError(f"--seed must be 0 or more, not {seed}")
    if not param:
        raise UserError("sweep needs --param key=v1,v2,...")
    out_path = check_out_path(out, (".png", ".svg", ".pdf")) if out else None
    spec = get_game(game)
    spec.check_players(players)
    if n < 2:
        raise UserError("--games must be at least 2")
    with interrupt_exits():
        res = run_sweep(
            spec,
            players,
            param,
            n,
            seed=seed,
            variants=variant,
            policies=policy,
            rules_file=rules_file,
            overrides=parse_set_options(set_ or []),
            threads=threads,
            progress=sys.stderr.isatty() and not json_out,
            version=package_version(),
            backend=backend,
            scheduler=scheduler,
            workers=workers,
        )
    t, keys = res["table"], res["params"]
    known = list(dict.fromkeys(t["metric"]))
    metrics = metric or [m for m in ("largest_gap", "fpa", "rounds") if m in known]
    bad = [m for m in metrics if m not in known]
    if bad:
        raise UserError(f"--metric '{bad[0]}' is not a metric here (known: {', '.join(known)})")
    if out_path is not None:
        _sweep_figure(t, keys, metrics, out_path)
    if json_out:
        js = {
            "game": spec.name,
            "players": players,
            "games": n,
            "seed": seed,
            "params": keys,
            "table": records(t.drop(columns=["verdict"])),
            "plot": str(out_path) if out_path else None,
        }
        typer.echo(json.dumps(js, indent=2, default=str))
        return
    typer.echo(
        f"{spec.title}: {players} players, {n:,} games per setting on the same games (seed {seed})"
    )
    wide = sweep_wide(t, keys, metrics)
    typer.echo(wide.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    typer.echo("(rates as shares; *_low/*_high: 95% CI)")
    for m in metrics:
        for v in t[(t.metric == m)]["verdict"]:
            if v:
                typer.echo(f"  {v}")
    if out_path:
        typer.echo(f"plot written to {out_path}")


def _sweep_figure(table, keys, metrics, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from analysis import plots

    fig, axes = plt.subplots(1, len(metrics), figsize=(5.2 * len(metrics), 3.8), squeeze=False)
    for ax, m in zip(axes[0], metrics):
        if len(keys) == 1:
            plots.sweep_line(table, keys[0], m, ax=ax)
        else:
            plots.sweep_heatmap(table, keys, m, ax=ax)
    fig.tight_layout()
    write_atomic(path, lambda p: fig.savefig(p, dpi=100, format=path.suffix[1:]))
    plt.close(fig)


@app.command()
def report(
    game: GameArg,
    out: Annotated[
        str | None, typer.Option("--out", help="output folder (default reports/GAME)")
    ] = None,
    games_: Annotated[
        str, typer.Option("--games", "-g", help="games per player count (other sections use fewer)")
    ] = "30000",
    seed: SeedOpt = 1,
    policy: PolicyOpt = None,
    threads: ThreadsOpt = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Write an HTML + Markdown balance report (plots, variants, dice, ladder, provenance)."""
    from analysis.report import write_report
    from simcore.games import get_game

    n = parse_count(games_)
    if n < 12:
        raise UserError("--games must be at least 12 for a report")
    if seed < 0:
        raise UserError(f"--seed must be 0 or more, not {seed}")
    spec = get_game(game)
    if policy is not None:
        spec.parse_policies(policy, spec.min_players)
    folder = Path(out or f"reports/{spec.name}")
    if folder.exists() and not folder.is_dir():
        raise UserError(f"--out '{out}' is a file; give a folder")
    with interrupt_exits():
        paths = write_report(
            spec,
            folder,
            n,
            seed,
            policy,
            version=package_version(),
            command="balance " + " ".join(sys.argv[1:]),
            echo=typer.echo,
            backend=backend,
            scheduler=scheduler,
            workers=workers,
            threads=threads,
            progress=sys.stderr.isatty(),
        )
    typer.echo(f"report written to {paths['html']} and {paths['markdown']} (data: {paths['json']})")


def main() -> None:
    """Entry point: run the app; any input error is one line on stderr and exit status 2."""
    from simcore.rulesbase import RulesError

    try:
        rc = app(standalone_mode=False)  # returns the code of a typer.Exit
        if isinstance(rc, int) and rc != 0:
            sys.exit(rc)
    except (UserError, RulesError) as e:
        sys.stderr.write(f"error: {e}\n")
        sys.exit(2)
    except _cx.ClickException as e:
        if type(e).__name__ == "NoArgsIsHelpError":
            sys.stderr.write(e.format_message() + "\n")
            sys.exit(0)
        msg = " ".join(e.format_message().split())
        sys.stderr.write(f"error: {msg}\n")
        sys.exit(2)
    except typer.Abort:
        sys.stderr.write("error: interrupted\n")
        sys.exit(130)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except KeyboardInterrupt:
        sys.stderr.write("\nerror: interrupted; no output file was written\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
