"""`balance`: the command line. Each command parses its options, calls one function of the
Python API (simcore) and hands the result to a renderer (analysis.render). The checks of game
counts, seeds and output paths are simcore.base.inputs', the same for every command.

Bad input of any kind ends with one line on stderr ("error: ...") and exit status 2: every
such error is a simcore.base.errors.BalanceError (RulesError for a rules choice, InputError for
any other input, the command line's own checks included).
"""

from __future__ import annotations

import functools
import inspect
import sys
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from simcore.base.errors import BalanceError, InputError
from simcore.base.fairness import TOLERANCE

try:  # typer >= 0.20 carries its own copy of click
    from typer._click import exceptions as _cx
except ImportError:  # pragma: no cover - older typer on click
    import click.exceptions as _cx  # type: ignore[no-redef]

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Monte Carlo rules-balance analyser for board games.",
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help text as written: "[variant.NAME]" is not markup
)


@contextmanager
def interrupt_exits(checkpoint: str | None = None, finished: str = ""):
    """Ctrl-C (or SIGTERM) while a command plays its games: one line on stderr, status 130,
    and no output file (the files are written only after the games); a command that saves
    its `finished` parts in a checkpoint says where they are."""
    try:
        yield
    except KeyboardInterrupt:
        if checkpoint:
            why = f"; the finished {finished} are in {checkpoint}: add --resume"
        else:
            why = "; no output file was written"
        sys.stderr.write(f"\nerror: interrupted{why}\n")
        raise typer.Exit(130) from None


def _rules(
    variant=None, set_=None, rules_file=None, policy=None, policy_file=None, game=None
) -> dict[str, Any]:
    """The rules and players options as the API's keywords (--set parsed; options not
    given are left to the API's defaults). Each --policy-file is loaded first, so that
    --policy can name its preset."""
    from simcore.base.rulesbase import parse_set_options

    _load_presets(game, policy_file)
    given = dict(variants=variant, rules_file=rules_file, policies=policy)
    return {"overrides": parse_set_options(set_ or []), **{k: v for k, v in given.items() if v}}


def _load_presets(game: str | None, files: list[str] | None) -> None:
    """--policy-file: add each preset file's player to its game (simcore.base.presetfile)."""
    if not files:
        return
    from simcore.frame.registry import get_game

    if game is None:
        raise InputError("--policy-file needs a game")
    for f in files:
        get_game(game).add_preset_file(f)


def _run(run: dict[str, Any], quiet: bool = False, lines: bool = False) -> dict[str, Any]:
    """The run options (the RUN group: --threads, --backend, --scheduler, --workers) as the
    API's keywords; a progress bar on a terminal unless quiet. lines (the long commands,
    report and robustness): otherwise a line per finished setting on stderr, flushed as it
    finishes (stderr piped into a log, or --json), so a log shows where a long run is."""
    from simcore.run.jobs import LINES

    bar = sys.stderr.isatty() and not quiet
    return dict(**run, progress=True if bar else (LINES if lines else False))


def _api_options(rules: dict[str, Any], run: dict[str, Any], quiet: bool, game=None):
    """The keywords of a command's simulating API call: the rules and players options (a dict
    of RULES' names) and the run options."""
    return {**_rules(**rules, game=game), **_run(run, quiet)}


def _count(text: str, what: str = "--games") -> int:
    from simcore.base.inputs import parse_count

    return parse_count(text, what)


def _out(path: str | None, kind: str):
    """--out checked for a file of `kind` (rows, trace, plot)."""
    from simcore.base import inputs

    suffixes = {"rows": inputs.ROWS_SUFFIXES, "trace": inputs.TRACE_SUFFIXES}
    return inputs.check_out_path(path, {**suffixes, "plot": inputs.PLOT_SUFFIXES}[kind])


def _opt(kind, *names: str, help: str):
    return Annotated[kind, typer.Option(*names, help=help)]


class OptionGroup(dict):
    """Options that several commands take together, in this order: name -> (option, default).
    A command parameter whose default is a group stands for the group's options (see
    `grouped`)."""


DEFAULT_PLAYERS = 3


def default_players(game: str | None) -> int:
    """--players when it is not given: 3, or the nearest count the game allows (Pig: 2); 3 for
    an unknown game (whose name is refused afterwards, with the known games)."""
    from simcore.base.errors import BalanceError
    from simcore.frame.registry import get_game

    try:
        spec = get_game(game) if game else None
    except BalanceError:
        return DEFAULT_PLAYERS
    return spec.nearest_players(DEFAULT_PLAYERS) if spec else DEFAULT_PLAYERS


def grouped(command):
    """Expand a command's option groups: each parameter whose default is an OptionGroup is
    replaced, at its place in the option list, by the group's options; the command receives
    their values as one dict (option name -> value) in that parameter."""
    sig = inspect.signature(command, eval_str=True)
    params, groups = [], {}
    for p in sig.parameters.values():
        if isinstance(p.default, OptionGroup):
            groups[p.name] = list(p.default)
            params += [
                p.replace(name=n, annotation=a, default=d) for n, (a, d) in p.default.items()
            ]
        else:
            params.append(p)

    @functools.wraps(command)
    def run(**kw: Any) -> Any:
        for name, members in groups.items():
            kw[name] = {n: kw.pop(n) for n in members}
        if "players" in kw and kw["players"] is None:
            kw["players"] = default_players(kw.get("game"))
        return command(**kw)

    run.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in params}
    return run


def command(name: str | None = None):
    """@command(): a command of the app whose option groups are expanded (grouped)."""
    return lambda f: app.command(name)(grouped(f))


GameArg = Annotated[str, typer.Argument(help="game name (see `balance games`)")]
PlayersOpt = _opt(
    int | None,
    "--players",
    "-n",
    help="number of players (default: 3, or the nearest the game allows)",
)
VariantOpt = _opt(
    list[str] | None,
    "--variant",
    "-v",
    help="named variant; repeat or join with '+' (short+no-chips)",
)
SetOpt = _opt(list[str] | None, "--set", help="override one rules field: key=value (repeatable)")
RulesFileOpt = _opt(
    str | None, "--rules-file", help="TOML file of [variant.NAME] tables of rules fields"
)
PolicyOpt = _opt(
    str | None, "--policy", help="policy per seat: random,random or name:weight=value,..."
)
SeedOpt = _opt(int, "--seed", help="random seed, 0 to 2**64-1")
DEFAULT_SEED = 1  # every command's --seed default (README: "Seeds")
BackendOpt = _opt(str, "--backend", help="local (numba threads) or dask (see docs/cluster.md)")
SchedulerOpt = _opt(str | None, "--scheduler", help="address of a running Dask scheduler")
WorkersOpt = _opt(int | None, "--workers", help="start a local Dask cluster of N workers")
ThreadsOpt = _opt(int | None, "--threads", help="worker threads")
JsonOpt = _opt(bool, "--json", help="print one JSON object")
RotateOpt = _opt(bool, "--rotate-seats", help="rotate the policy list over the seats")
SimGamesOpt = _opt(
    str | None,
    "--games",
    "-g",
    help="games to play (1e6 ok); the cap with --precision  [default: 10000; 1e8 with --precision]",
)
PrecisionOpt = _opt(
    float | None,
    "--precision",
    help="play until every seat's 95% CI half-width is at most this",
)
CheckOpt = _opt(bool, "--check", help="assert invariants after every action")
RowsOutOpt = _opt(str | None, "--out", help="write per-game rows (.csv/.parquet)")
CheckpointOpt = _opt(str | None, "--checkpoint", help="save progress to FILE as the run goes")
ResumeOpt = _opt(bool, "--resume", help="continue the run saved in --checkpoint")
ArmsOpt = _opt(
    list[str] | None,
    "--variant",
    "-v",
    help="one arm per option (short+no-chips is one arm); the first is the baseline",
)
SetArmOpt = _opt(
    list[str] | None, "--set-arm", help="an arm of rules fields: 'key=v,key2=v' (repeatable)"
)
SetEveryArmOpt = _opt(list[str] | None, "--set", help="a rules field set in every arm: key=value")
CountsOpt = _opt(str, "--players", "-n", help="player counts, e.g. 2,3,4")
DieOpt = _opt(
    list[str] | None,
    "--die",
    help="another die: a name or faces such as 0,1,1,2,2,3 (repeatable)",
)
ParamOpt = _opt(list[str] | None, "--param", help="key=v1,v2,... (lists: key=a,b;c,d); one or two")
PolicyFileOpt = _opt(
    list[str] | None,
    "--policy-file",
    help="a preset file of weights (from tune-players); --policy can then name it",
)
RULES = OptionGroup(
    variant=(VariantOpt, None),
    set_=(SetOpt, None),
    rules_file=(RulesFileOpt, None),
    policy=(PolicyOpt, None),
    policy_file=(PolicyFileOpt, None),
)
LINEUP = OptionGroup(policy=(PolicyOpt, None), policy_file=(PolicyFileOpt, None))
RUN = OptionGroup(
    threads=(ThreadsOpt, None),
    backend=(BackendOpt, "local"),
    scheduler=(SchedulerOpt, None),
    workers=(WorkersOpt, None),
)
RESUMABLE = OptionGroup(checkpoint=(CheckpointOpt, None), resume=(ResumeOpt, False))
# the ladder's search rungs (balance ladder; balance robustness --ladder)
RUNGS = OptionGroup(
    top_budget=(
        _opt(
            int | None,
            "--top-budget",
            help="the strongest search rung's budget  [default: 4x the game's default budget]",
        ),
        None,
    ),
    search_rungs=(
        _opt(
            int | None,
            "--search-rungs",
            help="search rungs: the top budget and its halvings (0: none)  [default: 5]",
        ),
        None,
    ),
    search_games=(
        _opt(
            str | None,
            "--search-games",
            help="games of a match or setting with a search rung  [default: ladder: a quarter "
            "of --games; robustness --ladder: a tenth]",
        ),
        None,
    ),
)
MetricOpt = _opt(
    list[str] | None,
    "--metric",
    help="metrics to show/plot (default largest_gap, fpa, rounds; also e.g. win_0, drama, "
    "lead_changes, decisiveness, runaway, comeback, margin)",
)


@app.command()
def games(
    json_out: JsonOpt = False,
    policy_file: _opt(
        list[str] | None, "--policy-file", help="also list the player of this preset file"
    ) = None,
) -> None:
    """List the games: seat ranges, variants, policies and rules fields with defaults."""
    from analysis import render
    from simcore.base.presetfile import read_preset_file
    from simcore.frame.registry import all_games

    for f in policy_file or []:
        _load_presets(read_preset_file(f).game, [f])
    render.games(all_games(), json_out, typer.echo)


@command()
def simulate(
    game: GameArg,
    players: PlayersOpt = None,
    games_: SimGamesOpt = None,
    rules: dict[str, Any] = RULES,
    rotate_seats: RotateOpt = False,
    seed: SeedOpt = DEFAULT_SEED,
    precision: PrecisionOpt = None,
    check: CheckOpt = False,
    out: RowsOutOpt = None,
    json_out: JsonOpt = False,
    run_opts: dict[str, Any] = RUN,
    saved: dict[str, Any] = RESUMABLE,
) -> None:
    """Play many games and report win rates per seat and policy, length and end reasons.

    A shared first place counts as no seat's win (win rates are outright wins only).
    """
    from analysis import render
    from simcore.run.runner import Interrupted
    from simcore.run.runner import simulate as run

    out_path = _out(out, "rows")
    n = _count(games_ or ("1e8" if precision is not None else "10000"))
    options = _api_options(rules, run_opts, json_out, game)
    version = render.package_version()
    try:
        res = run(
            game,
            players,
            n,
            seed=seed,
            rotate_seats=rotate_seats,
            checked=check,
            keep_rows=out_path is not None,
            precision=precision,
            **saved,
            **options,
        )
    except Interrupted as stop:
        render.simulation_partial(stop.result, saved["checkpoint"], json_out, version, typer.echo)
        raise typer.Exit(130) from None
    render.simulation(res, rules["variant"] or [], out_path, json_out, version, typer.echo)


@command()
def replay(
    game: GameArg,
    players: PlayersOpt = None,
    seed: SeedOpt = DEFAULT_SEED,
    game_index: _opt(int, "--game", help="game index within the seed, 0 to 2**63-1") = 0,
    rules: dict[str, Any] = RULES,
    rotate_seats: _opt(bool, "--rotate-seats", help="") = False,
    fmt: _opt(str, "--format", help="text or jsonl") = "text",
    out: _opt(str | None, "--out", help="write to a file") = None,
) -> None:
    """Replay one game move by move (the same game as index --game of `simulate --seed`)."""
    from analysis import render
    from simcore.run.runner import replay_game

    if fmt not in ("text", "jsonl"):
        raise InputError(f"--format must be text or jsonl, not '{fmt}'")
    out_path = _out(out, "trace")
    trace = replay_game(
        game,
        players,
        seed,
        game_index,
        **_rules(**rules, game=game),
        rotate_seats=rotate_seats,
        version=render.package_version(),
    )
    render.replay(trace, fmt, out_path, typer.echo)


@app.command()
def bench(
    game: Annotated[str | None, typer.Argument(help="game (default: all)")] = None,
    games_: _opt(str, "--games", "-g", help="games per measurement") = "100000",
    runs: _opt(int, "--runs", help="timed runs (median reported)") = 5,
    json_out: _opt(bool, "--json", help="also write bench.json") = False,
    policy: _opt(
        str | None, "--policy", help="one policy for every seat (default: each game's)"
    ) = None,
    full: _opt(
        bool, "--full", help="also plain-Python ratio, cold/warm start, peak memory"
    ) = False,
) -> None:
    """Measure games per second (1 and all threads) with the default players."""
    from analysis import render
    from simcore.base.inputs import check_folder_of
    from simcore.studies.bench import BenchError
    from simcore.studies.bench import bench as measure

    if json_out:
        check_folder_of("bench.json", "--json")
    try:
        res = measure(game, _count(games_), runs, policy=policy, full=full, echo=typer.echo)
    except BenchError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from None
    render.bench(res, json_out, typer.echo)


@command()
def compare(
    game: GameArg,
    players: PlayersOpt = None,
    variant: ArmsOpt = None,
    set_arm: SetArmOpt = None,
    set_: SetEveryArmOpt = None,
    rules_file: RulesFileOpt = None,
    lineup: dict[str, Any] = LINEUP,
    rotate_seats: _opt(bool, "--rotate-seats", help="") = False,
    games_: _opt(str, "--games", "-g", help="games per arm (1e4 ok)") = "20000",
    seed: SeedOpt = DEFAULT_SEED,
    json_out: JsonOpt = False,
    run_opts: dict[str, Any] = RUN,
) -> None:
    """Compare arms (variants, --set-arm settings) on the same games: paired differences."""
    from analysis import render
    from simcore.studies.arms import command_arms, run_compare

    arms = command_arms(variant, set_arm)
    rules = dict(set_=set_, rules_file=rules_file, **lineup)
    options = _api_options(rules, run_opts, json_out, game)
    with interrupt_exits():
        run = run_compare(
            game, players, arms, _count(games_), seed=seed, rotate_seats=rotate_seats, **options
        )
    render.compare(run, json_out, typer.echo)


@command()
def dice(
    game: GameArg,
    players: CountsOpt = "",
    die: DieOpt = None,
    set_: SetOpt = None,
    lineup: dict[str, Any] = LINEUP,
    games_: _opt(str, "--games", "-g", help="games per die and player count") = "20000",
    seed: SeedOpt = DEFAULT_SEED,
    json_out: JsonOpt = False,
    run_opts: dict[str, Any] = RUN,
) -> None:
    """Every die of the box (and any given) for every player count: seat fairness, length."""
    from analysis import render
    from simcore.base.inputs import parse_player_counts
    from simcore.studies.arms import run_dice

    counts = parse_player_counts(players)
    options = _api_options(dict(set_=set_, **lineup), run_opts, json_out, game)
    with interrupt_exits():
        runs = run_dice(game, counts, _count(games_), dice=die, seed=seed, **options)
    render.dice(runs, json_out, typer.echo)


@command()
def sweep(
    game: GameArg,
    players: PlayersOpt = None,
    param: ParamOpt = None,
    rules: dict[str, Any] = RULES,
    metric: MetricOpt = None,
    games_: _opt(str, "--games", "-g", help="games per setting") = "10000",
    seed: SeedOpt = DEFAULT_SEED,
    json_out: JsonOpt = False,
    out: _opt(str | None, "--out", help="write the plot (.png/.svg/.pdf)") = None,
    run_opts: dict[str, Any] = RUN,
) -> None:
    """Metrics per parameter value on the same games; a line plot or a heatmap with --out."""
    from analysis import render
    from simcore.studies.arms import run_sweep

    out_path = _out(out, "plot")
    options = _api_options(rules, run_opts, json_out, game)
    with interrupt_exits():
        swept = run_sweep(
            game, players, param or [], _count(games_), seed=seed, metrics=metric, **options
        )
    render.sweep(swept, metric, out_path, json_out, typer.echo)


AllCountsOpt = _opt(
    str, "--players", "-n", help="player counts, e.g. 2,3,4 (default: all the game allows)"
)
ReportVariantOpt = _opt(
    list[str] | None,
    "--variant",
    "-v",
    help="a variant compared beside the report's own (built-in or a [variant.NAME] of "
    "--rules-file; short+mine composes); repeatable",
)
ReportRulesFileOpt = _opt(
    str | None,
    "--rules-file",
    help="TOML file: each [variant.NAME] is compared beside the report's variants, each "
    "[reading.NAME] is a component reading",
)
# the rules options of report and robustness: every variant is an arm beside the game's own
STUDY_RULES = OptionGroup(
    variant=(ReportVariantOpt, None),
    set_=(SetOpt, None),
    rules_file=(ReportRulesFileOpt, None),
)


def _study_rules(rules: dict[str, Any], game: str) -> dict[str, Any]:
    """The STUDY_RULES group (and --policy, --policy-file where given) as the keywords of
    play_report and run_robustness: variants, overrides, rules_file (and the lineup)."""
    api = _rules(**rules, game=game)
    return {
        "variants": api.get("variants"),
        "overrides": api["overrides"],
        "rules_file": api.get("rules_file"),
        **({"policy": api["policies"]} if "policies" in api else {}),
    }


@command()
def report(
    game: GameArg,
    players: AllCountsOpt = "",
    rules: dict[str, Any] = STUDY_RULES,
    policy: PolicyOpt = None,
    policy_file: PolicyFileOpt = None,
    out: _opt(str | None, "--out", help="output folder (default reports/GAME)") = None,
    games_: _opt(
        str, "--games", "-g", help="games per player count (other sections use fewer)"
    ) = "20000",
    strong: _opt(str | None, "--strong", help="the strong players [search:budget=B/16]") = None,
    seed: SeedOpt = DEFAULT_SEED,
    run_opts: dict[str, Any] = RUN,
) -> None:
    """Write an HTML + Markdown balance report: the answer first, then plots, variants, dice,
    ladder. --variant, --rules-file, --set as for simulate (--set: every setting's base rules)."""
    from analysis.render import package_version
    from analysis.report import write_report
    from simcore.base.inputs import check_out_folder, parse_player_counts
    from simcore.studies.report_plan import play_report

    folder = check_out_folder(out or f"reports/{game}")
    counts = parse_player_counts(players)
    choice = _study_rules(dict(rules, policy=policy, policy_file=policy_file), game)
    with interrupt_exits():
        runs = play_report(
            game,
            _count(games_),
            seed,
            choice.pop("policy", None),
            players=counts,
            strong=strong,
            fix=True,
            **choice,
            echo=typer.echo,
            **_run(run_opts, lines=True),
        )
        command = "balance " + " ".join(sys.argv[1:])
        paths = write_report(
            runs, folder, version=package_version(), command=command, echo=typer.echo
        )
    typer.echo(f"report written to {paths['html']} and {paths['markdown']} (data: {paths['json']})")


StorageOpt = _opt(
    str | None,
    "--storage",
    help="the study's database: a file (SQLite) or a URL such as postgresql://host/db",
)
StudyOpt = _opt(str | None, "--study", help="the study's name (default: from the settings)")
JoinOpt = _opt(bool, "--join", help="join a study other workers are running (docs/tuning.md)")
BudgetOpt = _opt(
    str | None,
    "--budget",
    help="trials of the search, those stored included  [default: tune-players 200, tune 60]",
)
ConfirmOpt = _opt(
    str | None,
    "--confirm-games",
    help="fresh games per confirmed candidate  [default: tune-players 30000, tune 50000]",
)
TrialGamesOpt = _opt(
    str | None,
    "--games-per-trial",
    help="games per trial (tune-players: over the population)  [default: tune-players 6000, "
    "tune 20000]",
)
SEARCH = OptionGroup(
    budget=(BudgetOpt, None),
    games_per_trial=(TrialGamesOpt, None),
    confirm_games=(ConfirmOpt, None),
    confirm_top=(_opt(int, "--confirm-top", help="best trials confirmed on fresh games"), 3),
    storage=(StorageOpt, None),
    study=(StudyOpt, None),
    join=(JoinOpt, False),
)
COUNTED = ("budget", "games_per_trial", "confirm_games")  # SEARCH's counts (1e4 ok)


def _search(search: dict[str, Any]) -> dict[str, Any]:
    """The SEARCH group as the tuning API's keywords: the counts given (1e4 ok; the others
    are the command's defaults), top, storage, study, join."""
    out = {
        k: _count(v, "--" + k.replace("_", "-")) for k, v in search.items() if k in COUNTED and v
    }
    top = search["confirm_top"]
    return {**out, "top": top, **{k: search[k] for k in ("storage", "study", "join")}}


@command("tune-players")
def tune_players(
    game: GameArg,
    players: PlayersOpt = None,
    policy: _opt(str | None, "--policy", help="the player to tune (default: the game's)") = None,
    out: _opt(str, "--out", help="the preset file to write (.toml)") = "",
    name: _opt(str, "--name", help="the preset's name") = "tuned",
    search: dict[str, Any] = SEARCH,
    variant: VariantOpt = None,
    set_: SetOpt = None,
    rules_file: RulesFileOpt = None,
    seed: SeedOpt = DEFAULT_SEED,
    json_out: JsonOpt = False,
    run_opts: dict[str, Any] = RUN,
) -> None:
    """Search a player's weights for the most wins against the presets (optuna), confirm the
    best on fresh games and write them as a named preset file (docs/tuning.md)."""
    from analysis.render import package_version
    from analysis.tuning_tables import render_player_tuning
    from simcore.studies import tune_players as tp

    if not out:
        raise InputError("--out FILE.toml is needed: the preset file to write")
    rules = _rules(variant=variant, set_=set_, rules_file=rules_file, game=game)
    with interrupt_exits():
        res = tp.tune_players(
            game,
            players,
            out,
            policy=policy,
            name=name,
            **_search(search),
            seed=seed,
            command="balance " + " ".join(sys.argv[1:]),
            version=package_version(),
            **rules,
            **_run(run_opts, json_out),
        )
    render_player_tuning(res, json_out, typer.echo)


@command()
def tune(
    game: GameArg,
    players: PlayersOpt = None,
    param: _opt(
        list[str] | None, "--param", help="NAME=LOW..HIGH or NAME=V1,V2,... (repeatable)"
    ) = None,
    objective: _opt(
        list[str] | None,
        "--objective",
        help="seat-gap, first-player, length=TARGET, a quantity, max:Q or Q=TARGET (one or two)",
    ) = None,
    constraint: _opt(
        list[str] | None, "--constraint", help="QUANTITY OP NUMBER, e.g. 'mean_rounds<=9'"
    ) = None,
    search: dict[str, Any] = SEARCH,
    rules: dict[str, Any] = RULES,
    seed: SeedOpt = DEFAULT_SEED,
    json_out: JsonOpt = False,
    plot: _opt(str | None, "--plot", help="write the trade-off plot (.png/.svg/.pdf)") = None,
    run_opts: dict[str, Any] = RUN,
) -> None:
    """Search rules parameters for an objective under constraints (optuna), confirm the best
    settings against the starting rules on fresh games (docs/tuning.md)."""
    from analysis.tuning_tables import render_rules_tuning
    from simcore.studies import tune_rules as tr

    plot_path = _out(plot, "plot")
    api = _rules(**rules, game=game)
    with interrupt_exits():
        res = tr.tune_rules(
            game,
            players,
            param or [],
            objective or [],
            constraints=constraint,
            **_search(search),
            seed=seed,
            **api,
            **_run(run_opts, json_out),
        )
    render_rules_tuning(res, plot_path, json_out, typer.echo)


@command()
def robustness(
    game: GameArg,
    players: AllCountsOpt = "",
    games_: _opt(
        str, "--games", "-g", help="games per setting (the search settings 1/10 and 1/40)"
    ) = "10000",
    rules: dict[str, Any] = STUDY_RULES,
    setting: _opt(
        list[str] | None,
        "--setting",
        help="play only this setting (repeatable; the reference always)",
    ) = None,
    seed: SeedOpt = DEFAULT_SEED,
    json_out: JsonOpt = False,
    out: _opt(str | None, "--out", help="folder for robustness.json, .md and .html") = None,
    run_opts: dict[str, Any] = RUN,
    saved: dict[str, Any] = RESUMABLE,
    ladder: _opt(bool, "--ladder", help="the players: the ladder's rungs, rated") = False,
    rungs: dict[str, Any] = RUNGS,
) -> None:
    """Which balance verdicts hold over lineups of players and component readings (seat order,
    largest seat gap, first-player advantage, length, each variant's effect). --variant and
    a rules file's [variant.NAME] tables are compared beside the game's report variants;
    its [reading.NAME] tables are component readings; --set changes every setting's rules.
    --ladder: the players are the ladder's rungs, named with their ratings (docs/skill.md)."""
    from analysis import render
    from simcore.base.inputs import check_out_folder, parse_player_counts
    from simcore.studies.robustness import run_robustness

    counts = parse_player_counts(players)
    folder = check_out_folder(out) if out else None
    with interrupt_exits(saved["checkpoint"], "settings"):
        run = run_robustness(
            game,
            counts,
            _count(games_),
            seed=seed,
            **_study_rules(rules, game),
            settings=setting,
            **saved,
            **_run(run_opts, json_out, lines=True),
            **_ladder_options(ladder, **rungs),
        )
    render.robustness(run, folder, json_out, render.package_version(), typer.echo)


def _ladder_options(ladder, top_budget, search_rungs, search_games) -> dict[str, Any]:
    """The RUNGS options given as keywords of run_ladder or (--ladder) run_robustness."""
    given = {"top_budget": top_budget, "search_rungs": search_rungs}
    if search_games is not None:
        given["search_games"] = _count(search_games, "--search-games")
    more = {k: v for k, v in given.items() if v is not None}
    return {"ladder": True, **more} if ladder else more


@app.command()
@grouped
def ladder(
    game: GameArg,
    players: PlayersOpt = None,
    games_: _opt(
        str, "--games", "-g", help="games per match (a match with a search rung: --search-games)"
    ) = "4000",
    rungs: dict[str, Any] = RUNGS,
    policy: _opt(
        list[str] | None,
        "--policy",
        help="add a rung: one player, e.g. search:budget=512,base=greedy (repeatable)",
    ) = None,
    policy_file: _opt(
        list[str] | None,
        "--policy-file",
        help="a preset file of weights (from tune-players): its player is a rung (repeatable)",
    ) = None,
    variant: VariantOpt = None,
    set_: SetOpt = None,
    rules_file: RulesFileOpt = None,
    compare_variant: _opt(
        str | None,
        "--compare-variant",
        help="also play every rating match under this variant: does it make skill matter more?",
    ) = None,
    seed: SeedOpt = DEFAULT_SEED,
    json_out: JsonOpt = False,
    out: _opt(str | None, "--out", help="write the plot (.png/.svg/.pdf)") = None,
    run_opts: dict[str, Any] = RUN,
    saved: dict[str, Any] = RESUMABLE,
) -> None:
    """A rated ladder of players (random, the presets, search at doubling budgets, yours):
    Elo ratings, the balance at every level of skill, the skill class of the first-player
    advantage and the seat gap, and how much skill decides the game (docs/skill.md)."""
    from analysis.ladder import analyse
    from analysis.ladder_report import render
    from analysis.render import package_version
    from simcore.studies.ladder import run_ladder

    plot = _out(out, "plot")
    rules = _rules(variant, set_, rules_file, None, policy_file, game)
    more = _ladder_options(False, **rungs)
    if compare_variant:
        more["compare_variant"] = compare_variant
    with interrupt_exits(saved["checkpoint"], "matches"):
        run = run_ladder(
            game,
            players,
            _count(games_),
            **more,
            seed=seed,
            policies=policy,
            **saved,
            **rules,
            **_run(run_opts, json_out, lines=True),
        )
    render(analyse(run), plot, json_out, package_version(), typer.echo)


@command()
def compensate(
    game: GameArg,
    players: PlayersOpt = None,
    games_: _opt(str, "--games", "-g", help="games a screened candidate (same seed)") = "2000",
    confirm_games: _opt(str, "--confirm-games", help="fresh games a finalist") = "100000",
    level_games: _opt(str, "--level-games", help="games at each level checked") = "2000",
    level_screen: _opt(str, "--level-screen-games", help="games a candidate, other levels") = "400",
    level_budget: _opt(int, "--level-budget", help="candidates a group, other levels") = 24,
    policy: _opt(str | None, "--policy", help="the player in every seat") = None,
    policy_file: PolicyFileOpt = None,
    field: _opt(list[str] | None, "--field", help="a field to search (repeatable)") = None,
    max_amount: _opt(int | None, "--max-amount", help="most a seat gets [per field]") = None,
    budget: _opt(int, "--budget", help="candidates a group (optuna beyond)") = 300,
    tolerance: _opt(float, "--tolerance", help="fair: every pair within this (points)") = TOLERANCE,
    level: _opt(list[str] | None, "--level", help="check it with this player (repeatable)") = None,
    every_rung: _opt(bool, "--ladder", help="check it at every rung of the ladder") = False,
    variant: VariantOpt = None,
    set_: SetOpt = None,
    rules_file: RulesFileOpt = None,
    seed: SeedOpt = DEFAULT_SEED,
    json_out: JsonOpt = False,
    run_opts: dict[str, Any] = RUN,
    saved: dict[str, Any] = RESUMABLE,
) -> None:
    """The smallest seat compensation that evens the seats: screened on common random numbers,
    confirmed on fresh games, checked at every level, searched again at a level where it is
    not fair (docs/compensation.md). --checkpoint/--resume keep the finished plays."""
    from analysis.compensation import render
    from simcore.studies.compensate import run_compensate

    rules = _rules(variant, set_, rules_file, None, policy_file, game)
    with interrupt_exits(saved["checkpoint"], "plays"):
        run = run_compensate(
            game,
            players,
            _count(games_),
            confirm_games=_count(confirm_games, "--confirm-games"),
            level_games=_count(level_games, "--level-games"),
            level_screen_games=_count(level_screen, "--level-screen-games"),
            level_budget=level_budget,
            seed=seed,
            policy=policy,
            fields=field,
            max_amount=max_amount,
            budget=budget,
            tolerance=tolerance,
            levels=level,
            ladder=every_rung,
            echo=lambda line: print(line, file=sys.stderr, flush=True),
            **rules,
            **saved,
            **_run(run_opts, True),
        )
    render(run, None, json_out, typer.echo)


def main() -> None:
    """Entry point: run the app; any input error is one line on stderr and exit status 2."""
    try:
        rc = app(standalone_mode=False)  # returns the code of a typer.Exit
        if isinstance(rc, int) and rc != 0:
            sys.exit(rc)
    except BalanceError as e:
        sys.stderr.write(f"error: {' '.join(str(e).split())}\n")  # always one line
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
