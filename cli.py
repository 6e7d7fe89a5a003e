"""`balance`: the command line. Commands only parse options and call the Python API.

Bad input of any kind ends with one line on stderr ("error: ...") and exit status 2.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
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
) -> None:
    """Play many games and report win rates per seat and policy, length and end reasons."""
    from analysis.summary import result_json, summarize
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
    res = run(
        spec,
        players,
        n,
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
    )
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
        f"rules {res.rules_hash}" + (", seats rotated" if rotate_seats else "")
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
) -> None:
    """Measure games per second (1 and all threads) with the default players."""
    from simcore.bench import run_bench

    n = parse_count(games_)
    if runs < 1:
        raise UserError("--runs must be at least 1")
    res = run_bench(game, n, runs, echo=typer.echo, policy=policy)
    if json_out:
        Path("bench.json").write_text(json.dumps(res, indent=2))
        typer.echo("wrote bench.json")


@app.command()
def report(
    game: GameArg,
    out: Annotated[
        str | None, typer.Option("--out", help="output folder (default reports/GAME)")
    ] = None,
    games_: Annotated[str, typer.Option("--games", "-g", help="games per setting")] = "30000",
    seed: SeedOpt = 1,
    policy: PolicyOpt = None,
) -> None:
    """Write a Markdown + JSON balance report for every player count and variant."""
    from analysis.report import write_report
    from simcore.games import get_game

    n = parse_count(games_)
    spec = get_game(game)
    path = write_report(
        spec,
        Path(out or f"reports/{spec.name}"),
        n,
        seed,
        policy,
        version=package_version(),
        command="balance " + " ".join(sys.argv[1:]),
        echo=typer.echo,
    )
    typer.echo(f"report written to {path}")


def main() -> None:
    """Entry point: run the app; any input error is one line on stderr and exit status 2."""
    from simcore.rulesbase import RulesError

    try:
        app(standalone_mode=False)
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
