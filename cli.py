"""`balance`: the command line. Each command parses its options, calls one function of the
Python API (simcore) and hands the result to a renderer (analysis.render). The checks of game
counts, seeds and output paths are simcore.base.inputs', the same for every command.

Bad input of any kind ends with one line on stderr ("error: ...") and exit status 2: every
such error is a simcore.base.errors.BalanceError (RulesError for a rules choice, InputError for
any other input, the command line's own checks included).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import sys
from contextlib import contextmanager
from typing import Annotated, Any, get_type_hints

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


def _game(name: str):
    """The game's GameSpec (the API takes it, never a name); RulesError for an unknown name."""
    from simcore.frame.registry import get_game

    return get_game(name)


def _load_presets(game: str | None, files: list[str] | None) -> None:
    """--policy-file: add each preset file's player to its game (simcore.base.presetfile)."""
    if files and game is None:
        raise InputError("--policy-file needs a game")
    for f in files or []:
        _game(game).add_preset_file(f)


def _progress(line: str) -> None:
    """A progress line of a command (a stage finished): on stderr, flushed as it is written,
    so that stdout holds the answer alone (JSON alone with --json)."""
    print(line, file=sys.stderr, flush=True)


def _count(text: str, what: str = "--games") -> int:
    from simcore.base.inputs import parse_count

    return parse_count(text, what)


def _out(path: str | None, kind: str, what: str = "--out"):
    """An output file option (`what`) checked for a file of `kind` (rows, trace, plot)."""
    from simcore.base import inputs

    suffixes = {"rows": inputs.ROWS_SUFFIXES, "trace": inputs.TRACE_SUFFIXES}
    return inputs.check_out_path(path, {**suffixes, "plot": inputs.PLOT_SUFFIXES}[kind], what)


Text, Texts, Int = str | None, list[str] | None, int | None  # an option's type, None if not given


def _opt(kind, *names: str, help: str):
    return Annotated[kind, typer.Option(*names, help=help)]


def _command_line() -> str:
    return "balance " + " ".join(sys.argv[1:])


def _version() -> str:
    from analysis.render import package_version

    return package_version()


DEFAULT_PLAYERS = 3  # --players when it is not given, or the nearest count the game allows


class Group:
    """Options that several commands take together: a dataclass whose fields are the options
    (Annotated, with their defaults), declared once. A command's parameter annotated with a
    Group stands for the group's options, in the order of its fields (`grouped`); the command
    receives them as one object of the group, whose api() gives the API's keywords."""

    def counted(self, *names: str) -> dict[str, int]:
        """These count options (1e4 ok), those given, parsed: name -> count."""
        given = {n: getattr(self, n) for n in names if getattr(self, n) is not None}
        return {n: _count(v, "--" + n.replace("_", "-")) for n, v in given.items()}


def grouped(command):
    """Expand a command's option groups (Group parameters) into their options for typer, and
    gather the options' values into the group's object when the command is called; --players
    not given is DEFAULT_PLAYERS or the nearest count the game allows (Pig: 2)."""
    sig = inspect.signature(command, eval_str=True)
    params, groups = [], {}
    for p in sig.parameters.values():
        if not (inspect.isclass(p.annotation) and issubclass(p.annotation, Group)):
            params.append(p)
            continue
        hints = get_type_hints(p.annotation, include_extras=True)
        fields = dataclasses.fields(p.annotation)
        groups[p.name] = (p.annotation, [f.name for f in fields])
        params += [
            p.replace(name=f.name, annotation=hints[f.name], default=f.default) for f in fields
        ]

    @functools.wraps(command)
    def run(**kw: Any) -> Any:
        for name, (group, members) in groups.items():
            kw[name] = group(**{n: kw.pop(n) for n in members})
        if kw.get("players", 0) is None:
            kw["players"] = _game(kw["game"]).nearest_players(DEFAULT_PLAYERS)
        return command(**kw)

    run.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in params}
    return run


def command(name: str | None = None):
    """@command(): a command of the app whose option groups are expanded (grouped)."""
    return lambda f: app.command(name)(grouped(f))


GameArg = Annotated[str, typer.Argument(help="game name (see `balance games`)")]
PlayersOpt = _opt(
    Int, "--players", "-n", help="number of players (default: 3, or the nearest the game allows)"
)
CountsOpt = _opt(str, "--players", "-n", help="player counts, e.g. 2,3,4")
AllCountsOpt = _opt(
    str, "--players", "-n", help="player counts, e.g. 2,3,4 (default: all the game allows)"
)
VariantOpt = _opt(
    Texts, "--variant", "-v", help="named variant; repeat or join with '+' (short+no-chips)"
)
SetOpt = _opt(Texts, "--set", help="override one rules field: key=value (repeatable)")
RulesFileOpt = _opt(Text, "--rules-file", help="TOML file of [variant.NAME] tables of rules fields")
PolicyFileOpt = _opt(
    Texts, "--policy-file", help="a preset file (from tune-players): --policy can name its player"
)
SeedOpt = _opt(int, "--seed", help="random seed, 0 to 2**64-1")
DEFAULT_SEED = 1  # every command's --seed default (README: "Seeds")
JsonOpt = _opt(bool, "--json", help="print one JSON object")
RotateOpt = _opt(bool, "--rotate-seats", help="rotate the policy list over the seats")
PlotOutOpt = _opt(Text, "--out", help="write the plot (.png/.svg/.pdf)")


@dataclasses.dataclass
class Rules(Group):
    """The rules options: named variants, single fields (--set), a rules file."""

    variant: VariantOpt = None
    set_: SetOpt = None
    rules_file: RulesFileOpt = None

    def api(self) -> dict[str, Any]:
        """The API's keywords: overrides (--set parsed), variants and rules_file when given."""
        from simcore.base.rulesbase import parse_set_options

        given = {"variants": self.variant, "rules_file": self.rules_file}
        return {"overrides": parse_set_options(self.set_ or []), **_given(given)}


@dataclasses.dataclass
class Lineup(Group):
    """The players: --policy, and the preset files it may name."""

    policy: _opt(
        Text, "--policy", help="policy per seat: random,random or name:weight=value,..."
    ) = None
    policy_file: PolicyFileOpt = None

    def api(self, game: str) -> dict[str, Any]:
        """`policies` when given, each --policy-file loaded first (so --policy can name it)."""
        _load_presets(game, self.policy_file)
        return _given({"policies": self.policy})


def _given(options: dict[str, Any]) -> dict[str, Any]:
    """The options given (not None, not empty): the others are left to the API's defaults."""
    return {k: v for k, v in options.items() if v}


@dataclasses.dataclass
class Run(Group):
    """The run options: the seed, and where and how the games are played."""

    seed: SeedOpt = DEFAULT_SEED
    threads: _opt(Int, "--threads", help="worker threads") = None
    backend: _opt(str, "--backend", help="local (numba) or dask (docs/cluster.md)") = "local"
    scheduler: _opt(Text, "--scheduler", help="address of a running Dask scheduler") = None
    workers: _opt(Int, "--workers", help="start a local Dask cluster of N workers") = None

    def api(self, *, quiet: bool = False, lines: bool = False) -> dict[str, Any]:
        """The API's keywords: seed, threads, backend, scheduler, workers and progress (a bar on
        a terminal unless quiet; otherwise, with lines, a line per finished setting on
        stderr, flushed as it finishes, so a log shows where a long run is)."""
        from simcore.run.jobs import LINES

        bar = sys.stderr.isatty() and not quiet
        progress = True if bar else (LINES if lines else False)
        return {**dataclasses.asdict(self), "progress": progress}


@dataclasses.dataclass
class Saved(Group):
    """A checkpoint of a long run, and its resumption."""

    checkpoint: _opt(Text, "--checkpoint", help="save progress to FILE as the run goes") = None
    resume: _opt(bool, "--resume", help="continue the run saved in --checkpoint") = False

    def api(self) -> dict[str, Any]:
        """The API's keywords: checkpoint, resume."""
        return dataclasses.asdict(self)


@dataclasses.dataclass
class StudyRules(Rules):
    """The rules options of report and robustness: each variant is compared beside the
    game's own report variants."""

    variant: _opt(
        Texts,
        "--variant",
        "-v",
        help="a variant compared beside the report's own (built-in or a [variant.NAME] of "
        "--rules-file; short+mine composes); repeatable",
    ) = None
    rules_file: _opt(
        Text,
        "--rules-file",
        help="TOML file: each [variant.NAME] is compared beside the report's variants, each "
        "[reading.NAME] is a component reading",
    ) = None

    def api(self) -> dict[str, Any]:
        """The keywords of play_report and run_robustness: variants, overrides, rules_file."""
        return {"variants": self.variant, "rules_file": self.rules_file, **super().api()}


@dataclasses.dataclass
class Rungs(Group):
    """The ladder's search rungs (balance ladder; balance robustness --ladder)."""

    search_games: _opt(
        Text,
        "--search-games",
        help="games with a search rung  [default: ladder --games/4, robustness --games/10]",
    ) = None
    top_budget: _opt(
        Int, "--top-budget", help="the top search rung's budget  [default: 4x the game's]"
    ) = None
    search_rungs: _opt(
        Int, "--search-rungs", help="search rungs: the top budget, halved (0: none)  [default: 5]"
    ) = None

    def api(self) -> dict[str, Any]:
        """The options given, as keywords of run_ladder or run_robustness."""
        given = {"top_budget": self.top_budget, "search_rungs": self.search_rungs}
        return {**{k: v for k, v in given.items() if v is not None}, **self.counted("search_games")}


@dataclasses.dataclass
class Search(Group):
    """The tuners' search (optuna): its budget and games, the confirmation, the study."""

    budget: _opt(
        Text, "--budget", help="trials, those stored included  [default: tune-players 200, tune 60]"
    ) = None
    games_per_trial: _opt(
        Text,
        "--games-per-trial",
        help="games per trial (tune-players: over the population)  [default: tune-players "
        "6000, tune 20000]",
    ) = None
    confirm_games: _opt(
        Text,
        "--confirm-games",
        help="fresh games a confirmed candidate  [default: tune-players 30000, tune 50000]",
    ) = None
    confirm_top: _opt(int, "--confirm-top", help="best trials confirmed on fresh games") = 3
    storage: _opt(
        Text,
        "--storage",
        help="the study's database: a file (SQLite) or a URL (postgresql://host/db)",
    ) = None
    study: _opt(Text, "--study", help="the study's name (default: from the settings)") = None
    join: _opt(bool, "--join", help="join a study other workers run (docs/tuning.md)") = False

    def api(self) -> dict[str, Any]:
        """The tuning API's keywords: the counts given (1e4 ok; the others are the command's
        defaults), top, storage, study, join."""
        counts = self.counted("budget", "games_per_trial", "confirm_games")
        more = {"storage": self.storage, "study": self.study, "join": self.join}
        return {**counts, "top": self.confirm_top, **more}


@app.command()
def games(
    json_out: JsonOpt = False,
    policy_file: _opt(
        Texts, "--policy-file", help="also list the player of this preset file"
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
    *,
    players: PlayersOpt = None,
    games_: _opt(
        Text,
        "--games",
        "-g",
        help="games to play (1e6 ok); the cap with --precision  [default: 10000; 1e8 with "
        "--precision]",
    ) = None,
    rules: Rules,
    lineup: Lineup,
    rotate_seats: RotateOpt = False,
    precision: _opt(
        float | None,
        "--precision",
        help="play until every seat's 95% CI half-width is at most this",
    ) = None,
    check: _opt(bool, "--check", help="assert invariants after every action") = False,
    out: _opt(Text, "--out", help="write per-game rows (.csv/.parquet)") = None,
    json_out: JsonOpt = False,
    run: Run,
    saved: Saved,
) -> None:
    """Play many games and report win rates per seat and policy, length and end reasons.

    A shared first place counts as no seat's win (win rates are outright wins only).
    """
    from analysis import render
    from simcore.run.runner import Interrupted, simulate

    out_path = _out(out, "rows")
    n = _count(games_ or ("1e8" if precision is not None else "10000"))
    kw = {**rules.api(), **lineup.api(game), **run.api(quiet=json_out), **saved.api()}
    kw.update(rotate_seats=rotate_seats, checked=check, keep_rows=out_path is not None)
    version = render.package_version()
    try:
        res = simulate(_game(game), players, n, precision=precision, **kw)
    except Interrupted as stop:
        render.simulation_partial(stop.result, saved.checkpoint, json_out, version, typer.echo)
        raise typer.Exit(130) from None
    render.simulation(res, rules.variant or [], out_path, json_out, version, typer.echo)


@command()
def replay(
    game: GameArg,
    *,
    players: PlayersOpt = None,
    seed: SeedOpt = DEFAULT_SEED,
    game_index: _opt(int, "--game", help="game index within the seed, 0 to 2**63-1") = 0,
    rules: Rules,
    lineup: Lineup,
    rotate_seats: RotateOpt = False,
    fmt: _opt(str, "--format", help="text or jsonl") = "text",
    out: _opt(Text, "--out", help="write to a file") = None,
) -> None:
    """Replay one game move by move (the same game as index --game of `simulate --seed`)."""
    from analysis import render
    from simcore.run.runner import replay_game

    if fmt not in ("text", "jsonl"):
        raise InputError(f"--format must be text or jsonl, not '{fmt}'")
    out_path = _out(out, "trace")
    kw = {**rules.api(), **lineup.api(game), "rotate_seats": rotate_seats}
    trace = replay_game(_game(game), players, seed, game_index, **kw, version=_version())
    render.replay(trace, fmt, out_path, typer.echo)


@app.command()
def bench(
    game: Annotated[str | None, typer.Argument(help="game (default: all)")] = None,
    games_: _opt(str, "--games", "-g", help="games per measurement") = "100000",
    runs: _opt(int, "--runs", help="timed runs (median reported)") = 5,
    json_out: _opt(bool, "--json", help="also write bench.json") = False,
    policy: _opt(Text, "--policy", help="one policy for every seat (default: each game's)") = None,
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
    spec = _game(game) if game else None
    try:
        res = measure(spec, _count(games_), runs, policy=policy, full=full, echo=typer.echo)
    except BenchError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from None
    render.bench(res, json_out, typer.echo)


@command()
def compare(
    game: GameArg,
    *,
    players: PlayersOpt = None,
    variant: _opt(
        Texts,
        "--variant",
        "-v",
        help="one arm per option (short+no-chips is one arm); the first is the baseline",
    ) = None,
    set_arm: _opt(
        Texts, "--set-arm", help="an arm of rules fields: 'key=v,key2=v' (repeatable)"
    ) = None,
    set_: _opt(Texts, "--set", help="a rules field set in every arm: key=value") = None,
    rules_file: RulesFileOpt = None,
    lineup: Lineup,
    rotate_seats: RotateOpt = False,
    games_: _opt(str, "--games", "-g", help="games per arm (1e4 ok)") = "20000",
    json_out: JsonOpt = False,
    run: Run,
) -> None:
    """Compare arms (variants, --set-arm settings) on the same games: paired differences."""
    from analysis import render
    from simcore.studies.compare import command_arms, run_compare

    arms = command_arms(variant, set_arm)
    rules = Rules(set_=set_, rules_file=rules_file).api()
    options = {**rules, **lineup.api(game), **run.api(quiet=json_out)}
    spec, n = _game(game), _count(games_)
    with interrupt_exits():
        result = run_compare(spec, players, arms, n, rotate_seats=rotate_seats, **options)
    render.compare(result, json_out, typer.echo)


@command()
def dice(
    game: GameArg,
    *,
    players: CountsOpt = "",
    die: _opt(
        Texts, "--die", help="another die: a name or faces such as 0,1,1,2,2,3 (repeatable)"
    ) = None,
    set_: SetOpt = None,
    lineup: Lineup,
    games_: _opt(str, "--games", "-g", help="games per die and player count") = "20000",
    json_out: JsonOpt = False,
    run: Run,
) -> None:
    """Every die of the box (and any given) for every player count: seat fairness, length."""
    from analysis import render
    from simcore.base.inputs import parse_player_counts
    from simcore.studies.compare import run_dice

    counts = parse_player_counts(players)
    options = {**Rules(set_=set_).api(), **lineup.api(game), **run.api(quiet=json_out)}
    with interrupt_exits():
        runs = run_dice(_game(game), counts, _count(games_), dice=die, **options)
    render.dice(runs, json_out, typer.echo)


@command()
def sweep(
    game: GameArg,
    *,
    players: PlayersOpt = None,
    param: _opt(Texts, "--param", help="key=v1,v2,... (lists: key=a,b;c,d); one or two") = None,
    rules: Rules,
    lineup: Lineup,
    metric: _opt(
        Texts,
        "--metric",
        help="metrics to show/plot (default largest_gap, fpa, rounds; also e.g. win_0, drama, "
        "lead_changes, decisiveness, runaway, comeback, margin)",
    ) = None,
    games_: _opt(str, "--games", "-g", help="games per setting") = "10000",
    json_out: JsonOpt = False,
    out: PlotOutOpt = None,
    run: Run,
) -> None:
    """Metrics per parameter value on the same games; a line plot or a heatmap with --out."""
    from analysis import render
    from simcore.studies.compare import run_sweep

    out_path = _out(out, "plot")
    options = {**rules.api(), **lineup.api(game), **run.api(quiet=json_out)}
    with interrupt_exits():
        swept = run_sweep(
            _game(game), players, param or [], _count(games_), metrics=metric, **options
        )
    render.sweep(swept, metric, out_path, json_out, typer.echo)


@command()
def report(
    game: GameArg,
    *,
    players: AllCountsOpt = "",
    rules: StudyRules,
    lineup: Lineup,
    out: _opt(Text, "--out", help="output folder (default reports/GAME)") = None,
    games_: _opt(
        str, "--games", "-g", help="games per player count (other sections use fewer)"
    ) = "20000",
    strong: _opt(Text, "--strong", help="strong players [trained, else search:budget=B/16]") = None,
    run: Run,
) -> None:
    """Write an HTML + Markdown balance report: the answer first, then plots, variants, dice,
    ladder. --variant, --rules-file, --set as for simulate (--set: every setting's base rules).
    Progress on stderr; the files written on stdout."""
    from analysis.report import write_report
    from simcore.base.inputs import check_out_folder, parse_player_counts
    from simcore.studies.report import play_report

    folder = check_out_folder(out or f"reports/{game}")
    counts = parse_player_counts(players)
    kw = {"policy": lineup.api(game).get("policies"), "players": counts, "strong": strong}
    kw.update(fix=True, **rules.api(), echo=_progress, **run.api(lines=True))
    with interrupt_exits():
        runs = play_report(_game(game), _count(games_), **kw)
        version, line = _version(), _command_line()
        paths = write_report(runs, folder, version=version, command=line, echo=_progress)
    typer.echo(f"report written to {paths['html']} and {paths['markdown']} (data: {paths['json']})")


@command("tune-players")
def tune_players(
    game: GameArg,
    *,
    players: PlayersOpt = None,
    policy: _opt(Text, "--policy", help="the player to tune (default: the game's)") = None,
    out: _opt(str, "--out", help="the preset file to write (.toml)") = "",
    name: _opt(str, "--name", help="the preset's name") = "tuned",
    search: Search,
    rules: Rules,
    json_out: JsonOpt = False,
    run: Run,
) -> None:
    """Search a player's weights for the most wins against the presets (optuna), confirm the
    best on fresh games and write them as a named preset file (docs/tuning.md)."""
    from analysis.tuning_tables import render_player_tuning
    from simcore.studies import tune_players as tp

    if not out:
        raise InputError("--out FILE.toml is needed: the preset file to write")
    kw = {**search.api(), **rules.api(), **run.api(quiet=json_out), "policy": policy}
    with interrupt_exits():
        res = tp.tune_players(
            _game(game), players, out, name=name, command=_command_line(), version=_version(), **kw
        )
    render_player_tuning(res, json_out, typer.echo)


@command()
def tune(
    game: GameArg,
    *,
    players: PlayersOpt = None,
    param: _opt(Texts, "--param", help="NAME=LOW..HIGH or NAME=V1,V2,... (repeatable)") = None,
    objective: _opt(
        Texts, "--objective", help="one or two of: seat-gap, first-player, length=T, Q, max:Q, Q=T"
    ) = None,
    constraint: _opt(
        Texts, "--constraint", help="QUANTITY OP NUMBER, e.g. 'mean_rounds<=9'"
    ) = None,
    search: Search,
    rules: Rules,
    lineup: Lineup,
    json_out: JsonOpt = False,
    plot: _opt(Text, "--plot", help="write the trade-off plot (.png/.svg/.pdf)") = None,
    run: Run,
) -> None:
    """Search rules parameters for an objective under constraints (optuna), confirm the best
    settings against the starting rules on fresh games (docs/tuning.md)."""
    from analysis.tuning_tables import render_rules_tuning
    from simcore.studies import tune_rules as tr

    plot_path = _out(plot, "plot", "--plot")
    kw = {**search.api(), **rules.api(), **lineup.api(game), **run.api(quiet=json_out)}
    with interrupt_exits():
        res = tr.tune_rules(
            _game(game), players, param or [], objective or [], constraints=constraint, **kw
        )
    render_rules_tuning(res, plot_path, json_out, typer.echo)


@command()
def robustness(
    game: GameArg,
    *,
    players: AllCountsOpt = "",
    games_: _opt(
        str, "--games", "-g", help="games per setting (the search settings 1/10 and 1/40)"
    ) = "10000",
    rules: StudyRules,
    setting: _opt(
        Texts, "--setting", help="play only this setting (repeatable; the reference always)"
    ) = None,
    json_out: JsonOpt = False,
    out: _opt(Text, "--out", help="folder for robustness.json, .md and .html") = None,
    run: Run,
    saved: Saved,
    ladder: _opt(bool, "--ladder", help="the players: the ladder's rungs, rated") = False,
    rungs: Rungs,
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
    kw = {**rules.api(), **saved.api(), **run.api(quiet=json_out, lines=True), **rungs.api()}
    with interrupt_exits(saved.checkpoint, "settings"):
        result = run_robustness(
            _game(game),
            counts,
            _count(games_),
            settings=setting,
            **kw,
            **_given({"ladder": ladder}),
        )
    render.robustness(result, folder, json_out, _version(), typer.echo)


@command()
def ladder(
    game: GameArg,
    *,
    players: PlayersOpt = None,
    games_: _opt(
        str, "--games", "-g", help="games per match (a match with a search rung: --search-games)"
    ) = "4000",
    rungs: Rungs,
    policy: _opt(
        Texts,
        "--policy",
        help="add a rung: one player, e.g. search:budget=512,base=greedy (repeatable)",
    ) = None,
    policy_file: _opt(
        Texts,
        "--policy-file",
        help="a preset file of weights (from tune-players): its player is a rung (repeatable)",
    ) = None,
    rules: Rules,
    compare_variant: _opt(
        Text,
        "--compare-variant",
        help="every rating match again under this variant: does skill matter more?",
    ) = None,
    json_out: JsonOpt = False,
    out: PlotOutOpt = None,
    run: Run,
    saved: Saved,
) -> None:
    """A rated ladder of players (random, the presets, search at doubling budgets, yours):
    Elo ratings, the balance at every level of skill, the skill class of the first-player
    advantage and the seat gap, and how much skill decides the game (docs/skill.md)."""
    from analysis.ladder import analyse
    from analysis.ladder_report import render
    from simcore.studies.ladder import run_ladder

    plot = _out(out, "plot")
    _load_presets(game, policy_file)
    kw = {**rungs.api(), **saved.api(), **rules.api(), **run.api(quiet=json_out, lines=True)}
    kw.update(_given({"compare_variant": compare_variant}), policies=policy)
    with interrupt_exits(saved.checkpoint, "matches"):
        result = run_ladder(_game(game), players, _count(games_), **kw)
    render(analyse(result), plot, json_out, _version(), typer.echo)


@dataclasses.dataclass
class Screening(Group):
    """What compensate searches and how: the screening, the confirmation, the tolerance."""

    games: _opt(str, "--games", "-g", help="games a screened candidate (same seed)") = "2000"
    confirm_games: _opt(str, "--confirm-games", help="fresh games a finalist") = "100000"
    field: _opt(Texts, "--field", help="a field to search (repeatable)") = None
    max_amount: _opt(Int, "--max-amount", help="most a seat gets [per field]") = None
    budget: _opt(int, "--budget", help="candidates a group (optuna beyond)") = 300
    tolerance: _opt(float, "--tolerance", help="fair: every pair within this (points)") = TOLERANCE

    def api(self) -> dict[str, Any]:
        """The keywords of run_compensate (games, confirm_games, fields, max_amount, ...)."""
        counts = self.counted("games", "confirm_games")
        more = {"max_amount": self.max_amount, "budget": self.budget, "tolerance": self.tolerance}
        return {**counts, "fields": self.field, **more}


@dataclasses.dataclass
class Levels(Group):
    """compensate's check at other levels of skill, and its search where it is not fair."""

    level: _opt(Texts, "--level", help="check it with this player (repeatable)") = None
    ladder: _opt(bool, "--ladder", help="check it at every rung of the ladder") = False
    level_games: _opt(str, "--level-games", help="games at each level checked") = "2000"
    level_screen_games: _opt(
        str, "--level-screen-games", help="games a candidate, other levels"
    ) = "400"
    level_budget: _opt(int, "--level-budget", help="candidates a group, other levels") = 24

    def api(self) -> dict[str, Any]:
        """The keywords of run_compensate (levels, ladder, level_games, ...)."""
        counts = self.counted("level_games", "level_screen_games")
        return {
            "levels": self.level,
            "ladder": self.ladder,
            **counts,
            "level_budget": self.level_budget,
        }


@command()
def compensate(
    game: GameArg,
    *,
    players: PlayersOpt = None,
    search: Screening,
    levels: Levels,
    policy: _opt(Text, "--policy", help="the player in every seat") = None,
    policy_file: PolicyFileOpt = None,
    rules: Rules,
    json_out: JsonOpt = False,
    run: Run,
    saved: Saved,
) -> None:
    """The smallest seat compensation that evens the seats: screened on common random numbers,
    confirmed on fresh games, checked at every level, searched again at a level where it is
    not fair (docs/compensation.md). --checkpoint/--resume keep the finished plays."""
    from analysis.compensate import render
    from simcore.studies.compensate import run_compensate

    _load_presets(game, policy_file)
    kw = {**search.api(), **levels.api(), **rules.api(), **saved.api(), **run.api(quiet=True)}
    with interrupt_exits(saved.checkpoint, "plays"):
        result = run_compensate(_game(game), players, policy=policy, echo=_progress, **kw)
    render(result, None, json_out, typer.echo)


@command()
def train(
    game: GameArg,
    *,
    players: PlayersOpt = None,
    games_: _opt(str, "--games", "-g", help="games of self-play (1e6 ok)") = "1000000",
    out: _opt(Text, "--out", help="the model (.npz), provenance beside it (.json)") = None,
    hidden: _opt(int, "--hidden", help="the model's hidden units (0: linear)") = 32,
    activation: _opt(str, "--activation", help="the units: tanh or softsign") = "tanh",
    alpha: _opt(float | None, "--alpha", help="the first rate [default: 0.02]") = None,
    league: _opt(float, "--league", help="share of games against the base preset") = 0.0,
    expert: _opt(int, "--expert", help="Expert Iteration: search simulations a candidate") = 0,
    variant: VariantOpt = None,
    set_: SetOpt = None,
    seed: _opt(int, "--seed", help="random seed (evaluations use others)") = 49,
    curve: _opt(str, "--curve", help="games a learning-curve point, at each checkpoint") = "0",
    plot: _opt(Text, "--plot", help="write the learning curve (.png/.svg/.pdf)") = None,
    saved: Saved,
) -> None:
    """Train the game's `trained` player by self-play; --policy trained:model=FILE plays it."""
    from analysis import render
    from simcore.studies.train import TrainSettings
    from simcore.studies.train import train as run_train

    rules, plot_path = Rules(variant, set_).api(), _out(plot, "plot", "--plot")
    if plot_path and curve == "0":
        raise InputError("--plot draws the learning curve: give --curve GAMES too")
    bar = sys.stderr.isatty()  # a terminal: a bar with the lines above it; piped: the lines
    echo = None if bar else _progress
    rate = {} if alpha is None else {"alpha": alpha}
    learn = TrainSettings(
        hidden=hidden, activation=activation, league=league, expert=expert, **rate
    )
    with interrupt_exits(saved.checkpoint, "games"):
        res = run_train(_game(game), players, _count(games_), seed=seed, out=out, echo=echo,
                        settings=learn, **rules, **saved.api(), curve_games=_curve(curve),
                        command=" ".join(["balance", *sys.argv[1:]]), progress=bar)  # fmt: skip
    render.train(res, plot_path, typer.echo)


def _curve(text: str) -> int:
    return 0 if text == "0" else _count(text, "--curve")


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
