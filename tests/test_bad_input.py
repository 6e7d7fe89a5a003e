"""Hostile input (issue #22): every bad invocation of every command, for every game, ends with
exactly one line on stderr ("error: ..."), exit status 2, no traceback, and no file left
behind or changed, before any game is played or any kernel compiled.

The table is written from the declarations where it can be: one case per declared range end of
every rules field (in_range, one_of) and every policy weight (GameSpec.weight_ranges), one per
number-typed option of every command; then the specific cases of the issue (sizes, numbers the
engine cannot hold, checkpoints, rules files, paths). The cases run in-process through
cli.main (stderr captured as written); a few run as real subprocesses, the honest check of
"one line on stderr". Playing or compiling during a case is itself a failure (guarded).
"""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
import typer

import cli
from simcore import get_game
from simcore.base.inputs import MAX_GAMES, MAX_SEED
from simcore.frame.registry import all_games
from simcore.run.checkpoint import SIMULATE, summary_to_json
from simcore.run.chunks import ChunkPlan
from simcore.run.runner import prepare_simulation
from tests.conftest import run_main

ROOT = Path(__file__).resolve().parents[1]
GAMES = all_games()
# a command that takes --set and --policy for each game, in turn (every command gets cases)
RULES_COMMANDS = ("simulate", "replay", "compare", "sweep")
ARMS = ["-v", "base", "-v", "base"]  # two arms, valid in every game


def _players(game: str) -> str:
    spec = GAMES[game]
    return str(max(spec.min_players, 2))


def _cmd(command: str, game: str, *extra: str, avoid: str = "") -> list[str]:
    """A command line of `command` for `game` that is valid but for `extra` (a sweep over a
    whole-number field other than `avoid`)."""
    base = [command, game, "-n", _players(game)]
    if command == "compare":
        base += ARMS
    if command == "sweep":
        field = next(
            f.name
            for f in dataclasses.fields(GAMES[game].rules_cls)
            if f.type == "int" and f.name != avoid
        )
        base += ["--param", f"{field}={getattr(GAMES[game].rules_cls(), field)}"]
    return [*base, *extra]


def _out_of_range(f: dataclasses.Field, default, value: int) -> str:
    """--set text for field f with one whole number replaced by `value`."""
    if isinstance(default, tuple):
        if default and isinstance(default[0], tuple):
            first = "/".join(map(str, (value, *default[0][1:])))
            return ",".join([first, *("/".join(map(str, c)) for c in default[1:])])
        items = list(default) or [value]
        items[0] = value
        return ",".join(map(str, items))
    return str(value)


def _rules_cases() -> list[tuple[str, list[str]]]:
    """One case per end of every declared range, one per one_of field, all four games."""
    cases = []
    k = 0
    for game, spec in GAMES.items():
        default = spec.rules_cls()
        for f in dataclasses.fields(spec.rules_cls):
            command = RULES_COMMANDS[k % len(RULES_COMMANDS)]
            k += 1
            d = getattr(default, f.name)
            if "range" in f.metadata:
                lo, hi = f.metadata["range"]
                for v, end in ((lo - 1, "below"), (hi + 1, "above")):
                    text = _out_of_range(f, d, v)
                    cases.append(
                        (
                            f"{game}-{f.name}-{end}",
                            _cmd(command, game, "--set", f"{f.name}={text}", avoid=f.name),
                        )
                    )
            elif "choices" in f.metadata:
                cases.append(
                    (f"{game}-{f.name}-choice", _cmd(command, game, "--set", f"{f.name}=nonsense"))
                )
    return cases


def _weight_cases() -> list[tuple[str, list[str]]]:
    """Per game, every weight of every policy: each end of its declared range, nan and inf;
    a fraction where it must be whole."""
    cases = []
    for game, spec in GAMES.items():
        for pol in spec.policies.values():
            for w in pol.weights:
                r = spec.weight_ranges[w]
                bad = [r.lo - 1, r.hi + 1]
                if r.whole:
                    bad.append(r.lo + 0.5)
                for v in bad:
                    cases.append(
                        (
                            f"{game}-{pol.name}:{w}={v}",
                            _cmd("simulate", game, "--policy", f"{pol.name}:{w}={v}"),
                        )
                    )
        pol = next((p for p in spec.policies.values() if p.weights), None)
        if pol is None:  # a game whose players have no weights (no decisions)
            continue
        w = next(iter(pol.weights))
        for v in ("nan", "inf", "-inf", "1e999", "abc"):
            cases.append(
                (
                    f"{game}-{pol.name}:{w}={v}",
                    _cmd("compare", game, "--policy", f"{pol.name}:{w}={v}"),
                )
            )
    return cases


def _typed_option_cases() -> list[tuple[str, list[str]]]:
    """Every option of every command whose declared type is a number, given a word."""
    cases = []
    group = typer.main.get_command(cli.app)
    for name, command in group.commands.items():
        for p in command.params:
            if not p.opts[0].startswith("--") or str(p.bare_type()) not in ("int", "float"):
                continue
            args = [name] + (["sunken-city"] if name != "games" else []) + [p.opts[0], "many"]
            cases.append((f"{name}{p.opts[0]}-type", args))
    return cases


def _bad_checkpoints(tmp: Path) -> dict[str, object]:
    """Checkpoint files of every kind of damage, for the run `simulate sunken-city -n 3
    --games 20000 --seed 1` (the right fingerprint, so only the damage is refused)."""
    job = prepare_simulation(get_game("sunken-city"), 3, 20_000, seed=1)
    summary = summary_to_json(job.summary)
    good = {
        "format": SIMULATE.format,
        "fingerprint": job.fingerprint,
        "chunks_done": 1,
        "summary": summary,
    }
    wrong_shape = dict(summary, seat_wins=[0, 0])
    wrong_type = dict(summary, games="many")
    return {
        "list": [1, 2, 3],
        "string": "checkpoint",
        "summary-shape": dict(good, chunks_done=0, summary=wrong_shape),
        "summary-type": dict(good, chunks_done=0, summary=wrong_type),
        "summary-list": dict(good, summary=[1]),
        "negative-chunks": dict(good, chunks_done=-3),
        "too-many-chunks": dict(good, chunks_done=99),
        "games-mismatch": dict(good, chunks_done=1),  # a summary of 0 games for 16,384
        "other-run": dict(good, fingerprint=dict(job.fingerprint, seed=2)),
        "old-format": dict(good, chunks_done=0, format=SIMULATE.format - 1),
        "extra-key": dict(good, chunks_done=0, rows=[]),
        "not-json": None,
    }


# each kind of damage and the words of its refusal
CHECKPOINT_KINDS = {
    "list": "a JSON list, not an object",
    "string": "a JSON str, not an object",
    "summary-shape": "its summary's seat_wins is not (3,) whole numbers",
    "summary-type": "its summary's games is not a whole number",
    "summary-list": "its summary is not an object",
    "negative-chunks": "chunks_done must be a whole number 0 to 2, not -3",
    "too-many-chunks": "chunks_done must be a whole number 0 to 2, not 99",
    "games-mismatch": "its summary counts 0 games, but 1 chunks hold 16384",
    "other-run": "it belongs to a different run",
    "old-format": f"its format is {SIMULATE.format - 1}, not {SIMULATE.format}",
    "extra-key": "it is not a simulate checkpoint",
    "not-json": "cannot be read (not valid JSON)",
}

DEEP_TOML = "[variant.deep]\ndie = " + "[" * 5000 + "]" * 5000 + "\n"

TUNE = "tune sunken-city --param streets_space1=15..30 --objective seat-gap"  # a valid tune


def _cases(text: str) -> list[tuple[str, list[str]]]:
    """The cases of a table of lines 'NAME  COMMAND LINE' (words split as a shell does; '#'
    lines are comments)."""
    rows = [ln.split(None, 1) for ln in text.splitlines() if ln.strip() and ln[0] != "#"]
    return [(name, shlex.split(line)) for name, line in rows]


SPECIFIC = _cases(
    f"""
# unbounded sizes
simulate-games-1e30               simulate sunken-city --games 1e30
simulate-games-2**62+1            simulate sumeria --games {MAX_GAMES + 1}
simulate-games-0                  simulate sunken-treasure --games 0
simulate-games-fraction           simulate secrets-of-the-sea --games 10.5
simulate-games-word               simulate sunken-city --games lots
simulate-games-inf                simulate sunken-city --games inf
simulate-out-rows-cap             simulate sunken-city --games 1e9 --out r.csv
compare-games-1e30                compare sunken-city -v base -v base --games 1e30
compare-total-over-2**62          compare sumeria -v base -v short --games {MAX_GAMES}
bench-games-1e30                  bench sunken-city --games 1e30
bench-games-1e12                  bench sunken-city --games 1e12
bench-runs-0                      bench sunken-city --runs 0
bench-runs-huge                   bench sunken-city --runs 1000000000
dice-games-1e30                   dice sunken-city --games 1e30
sweep-games-1e30                  sweep sunken-city --param chip_supply=4,8 --games 1e30
report-games-1e30                 report sunken-city --games 1e30 --out rep
report-games-few                  report sumeria --games 10 --out rep
# numbers the engine cannot hold
simulate-seed-2**64               simulate sunken-city --seed {MAX_SEED + 1}
simulate-seed-negative            simulate sunken-city --seed -1
replay-game-2**64                 replay sunken-city --game {MAX_SEED + 1}
replay-game-2**63                 replay sunken-treasure -n 3 --game {2**63}
replay-seed-2**64                 replay sumeria --seed {MAX_SEED + 1}
replay-game-negative              replay secrets-of-the-sea --game -1
compare-seed-2**64                compare sunken-treasure -v base -v base --seed {MAX_SEED + 1}
dice-seed-huge                    dice sunken-city --seed {10**30}
sweep-seed-2**64                  sweep sumeria --param rounds=5,6 --seed {MAX_SEED + 1}
report-seed-2**64                 report sunken-treasure --seed {MAX_SEED + 1} --out rep
set-die-huge                      simulate sunken-city --set die=99999999999999999999999
set-die-1e18                      simulate sunken-city --set die=1e18,1e18
set-owner-limit-1e20              simulate sunken-city --set owner_limit=1e20,3,3
set-max-rounds-1e400              simulate sunken-city --set max_rounds=1e400
set-target-huge                   simulate sunken-treasure --set target={2**70}
set-bad-key                       simulate sumeria --set colour=blue
set-no-equals                     simulate sumeria --set rounds
set-bool-word                     simulate secrets-of-the-sea --set empty_may_stop=perhaps
set-arm-huge                      compare sunken-city -v base --set-arm chip_supply=1e30
set-arm-empty                     compare sunken-city -v base --set-arm ''
players-huge                      simulate sunken-city -n 99999999999999999999
players-zero                      compare sumeria -n 0 -v base -v base
# nonsense that used to be accepted
weight-greed-nan                  simulate sunken-city --policy balanced:greed=nan
weight-caution-inf                simulate sunken-city --policy balanced:caution=inf
weight-search-negative            simulate sunken-city --policy balanced:search=-5
weight-depth-99                   simulate secrets-of-the-sea --policy stop-at-depth:depth=99
policy-unknown                    replay sunken-treasure --policy genius
policy-seat-count                 simulate sumeria -n 3 --policy random,random
bench-policy-nan                  bench sunken-city --policy balanced:greed=nan
dice-policy-inf                   dice sunken-city --policy balanced:bank=inf
report-policy-bad                 report sumeria --policy balanced:now=-1 --out rep
# options out of their ranges
precision-too-big                 simulate sunken-city --precision 0.7
precision-nan                     simulate sunken-city --precision nan
threads-zero                      simulate sunken-city --threads 0
threads-huge                      compare sunken-city -v base -v base --threads 100000
backend-unknown                   simulate sunken-city --backend gpu
workers-local                     dice sunken-city --workers 2
scheduler-local                   sweep sunken-city --param chip_supply=4,8 --scheduler x:1
replay-format                     replay sunken-city --format xml
dice-players-repeat               dice sunken-city --players 2,2
dice-players-word                 dice sunken-city --players two
dice-no-die-field                 dice sumeria
dice-die-huge                     dice sunken-city --die 1e18,1e18
dice-set-die                      dice sunken-city --set die=black
sweep-metric-unknown              sweep sunken-city --param chip_supply=4,8 --metric fun
sweep-no-param                    sweep sunken-treasure
sweep-param-huge                  sweep sunken-treasure --param target=1,1e30
compare-variant-unknown           compare secrets-of-the-sea -v base -v turbo
simulate-variant-unknown          simulate sunken-treasure -v base+turbo
game-unknown                      simulate chess
bench-game-unknown                bench chess
command-unknown                   play sunken-city
option-unknown                    games --colour
resume-without-checkpoint         simulate sunken-city --resume
checkpoint-with-out               simulate sunken-city --checkpoint c.json --out r.csv
# paths that cannot be written: refused before any game
out-proc                          simulate sunken-city --out /proc/x.csv
out-sys                           simulate sumeria --out /sys/x.csv
out-directory                     simulate sunken-city --out adir
out-missing-parent                simulate sunken-city --out missing/x.csv
out-suffix                        simulate sunken-city --out rows.txt
replay-out-proc                   replay sunken-treasure --out /proc/x.txt
replay-out-directory              replay sunken-city --out adir
sweep-out-sys                     sweep sunken-city --param chip_supply=4,8 --out /sys/x.png
sweep-out-suffix                  sweep sunken-city --param chip_supply=4,8 --out x.gif
report-out-proc                   report sunken-city --out /proc/x
report-out-file                   report sunken-city --out afile
checkpoint-proc                   simulate sunken-city --checkpoint /proc/x.json
checkpoint-directory              simulate sunken-city --checkpoint adir --resume
checkpoint-missing-resume         simulate sunken-city --checkpoint no.json --resume
checkpoint-exists-no-resume       simulate sunken-city --checkpoint afile
# robustness
robustness-players-9              robustness sunken-city --players 3,9
robustness-games-0                robustness sumeria --games 0
robustness-games-1e30             robustness sunken-city --games 1e30
robustness-setting-unknown        robustness sunken-city --setting genius
robustness-resume-alone           robustness sunken-city --resume
robustness-checkpoint-exists      robustness sunken-city --checkpoint afile
robustness-out-file               robustness sunken-city --out afile
robustness-rules-file-bad         robustness sunken-treasure --rules-file afile
robustness-checkpoint-other       robustness sunken-city --checkpoint rob.json --resume
robustness-checkpoint-format      robustness sunken-city --checkpoint rob-old.json --resume
robustness-checkpoint-of-simulate robustness sunken-city --checkpoint sim.json --resume
# rules files
rules-file-deep                   simulate sunken-city --rules-file deep.toml -v deep
rules-file-builtin-name           simulate sunken-city --rules-file short.toml -v short
rules-file-huge-number            compare sunken-treasure --rules-file huge.toml -v base -v big
rules-file-float-die              simulate sunken-city --rules-file float.toml -v f
rules-file-unused-bad             simulate sumeria --rules-file unused.toml -v good
rules-file-directory              simulate sumeria --rules-file adir
rules-file-missing                sweep sumeria --param rounds=5,6 --rules-file no.toml
rules-file-not-utf8               simulate secrets-of-the-sea --rules-file latin.toml
rules-file-not-toml               simulate secrets-of-the-sea --rules-file afile
rules-file-unknown-key            replay sunken-treasure --rules-file unknown.toml -v x
# tuning (docs/tuning.md): refused before a study file is made or a game played
tune-players-no-out               tune-players sunken-city
tune-players-out-suffix           tune-players sunken-city --out w.csv
tune-players-random               tune-players sunken-city --out w.toml --policy random
tune-players-budget-0             tune-players sunken-city --out w.toml --budget 0
tune-players-name-taken           tune-players sunken-city --out w.toml --name greedy
tune-players-storage-folder       tune-players sunken-city --out w.toml --storage nofolder/s.db
tune-no-param                     tune sunken-city --objective seat-gap
tune-no-objective                 tune sunken-city --param streets_space1=15..30
tune-bad-objective                tune sunken-city --param streets_space1=15..30 --objective gap
tune-three-objectives             {TUNE} --objective seat-gap --objective seat-gap
tune-bad-constraint               {TUNE} --constraint rounds=9
tune-range-none-valid             tune sunken-city --param streets_space1=40..60
tune-plot-suffix                  {TUNE} --plot p.txt
policy-file-missing               simulate sunken-city --policy-file none.toml
policy-file-not-toml              simulate sunken-city --policy t@afile
"""
)


def _files(tmp: Path) -> None:
    """The inputs the cases refer to (checkpoints are added by the checkpoint cases)."""
    (tmp / "adir").mkdir()
    (tmp / "afile").write_text("x = [\n")
    (tmp / "rob.json").write_text('{"format": 1, "fingerprint": {}, "settings": {}}')
    (tmp / "rob-old.json").write_text('{"format": 0, "fingerprint": {}, "settings": {}}')
    sim = '{"format": 3, "fingerprint": {}, "chunks_done": 0, "summary": {}}'
    (tmp / "sim.json").write_text(sim)
    (tmp / "deep.toml").write_text(DEEP_TOML)
    (tmp / "short.toml").write_text("[variant.short]\nchip_supply = 3\n")
    (tmp / "huge.toml").write_text(f"[variant.big]\ntarget = {10**23}\n")
    (tmp / "float.toml").write_text("[variant.f]\ndie = [1e18, 1.0]\n")
    (tmp / "unused.toml").write_text("[variant.good]\nrounds = 5\n[variant.bad]\nrounds = 1e9\n")
    (tmp / "latin.toml").write_bytes("[variant.caf\xe9]\n".encode("latin-1"))
    (tmp / "unknown.toml").write_text("[variant.x]\nsharks = 3\n")


def _snapshot(tmp: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(tmp)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(tmp.rglob("*"))
    }


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A folder with the cases' input files as the working directory; playing or compiling
    fails the test (bad input must be refused before)."""
    _files(tmp_path)
    monkeypatch.chdir(tmp_path)

    def refuse(*a, **k):
        raise AssertionError("a game was played or compiled for bad input")

    monkeypatch.setattr("simcore.run.jobs._run_local", refuse)
    monkeypatch.setattr("simcore.run.jobs.run_dask", refuse)
    monkeypatch.setattr("simcore.frame.registry.GameSpec.replay", refuse)
    monkeypatch.setattr("simcore.studies.bench._time_batch", refuse)
    return tmp_path


def assert_refused(args, sandbox, monkeypatch, capsys) -> str:
    before = _snapshot(sandbox)
    code, out, err = run_main(args, monkeypatch, capsys)
    lines = err.splitlines()
    assert code == 2, (args, code, out, err)
    assert len(lines) == 1 and lines[0].startswith("error: "), (args, err)
    assert "Traceback" not in err + out
    assert _snapshot(sandbox) == before, "a file was left behind or changed"
    return lines[0]


TABLE = SPECIFIC + _rules_cases() + _weight_cases() + _typed_option_cases()


def test_table_is_large_and_covers_every_command_and_game():
    assert len(TABLE) + len(CHECKPOINT_KINDS) >= 80
    commands = {args[0] for _, args in TABLE}
    assert set(typer.main.get_command(cli.app).commands) <= commands
    assert {g for _, args in TABLE for g in GAMES if g in args} == set(GAMES)


@pytest.mark.parametrize("args", [a for _, a in TABLE], ids=[i for i, _ in TABLE])
def test_bad_input_is_one_line(args, sandbox, monkeypatch, capsys):
    assert_refused(args, sandbox, monkeypatch, capsys)


@pytest.mark.parametrize("kind", CHECKPOINT_KINDS)
def test_bad_checkpoint_is_refused_and_left_untouched(kind, sandbox, monkeypatch, capsys):
    data = _bad_checkpoints(sandbox)[kind]
    path = sandbox / "ck.json"
    path.write_text("{not json" if data is None else json.dumps(data))
    args = ["simulate", "sunken-city", "-n", "3", "--games", "20000", "--seed", "1"]
    line = assert_refused(
        [*args, "--checkpoint", "ck.json", "--resume"], sandbox, monkeypatch, capsys
    )
    assert "checkpoint 'ck.json'" in line and CHECKPOINT_KINDS[kind] in line, line


def test_every_rules_field_and_weight_declares_its_range():
    """Ranges come from the declarations: every whole-number field (or tuple of them) of every
    game's rules declares in_range, every text field one_of or a check of its own; every
    weight of every policy a WeightRange that holds its default."""
    text_fields = {"board", "map", "light_tiles", "dark_tiles", "wreck_tiles"}
    for game, spec in GAMES.items():
        for f in dataclasses.fields(spec.rules_cls):
            if f.type == "bool" or f.name in text_fields:
                continue
            assert "range" in f.metadata or "choices" in f.metadata, (game, f.name)
        for pol in spec.policies.values():
            for w, v in pol.weights.items():
                assert spec.weight_ranges[w].problem(v) is None, (game, pol.name, w)


def test_chunk_plan_is_lazy():
    """2**62 games: the plan, the job and its task list take no memory to speak of."""
    plan = ChunkPlan(0, MAX_GAMES, 16_384)
    assert len(plan) == MAX_GAMES // 16_384
    assert plan[-1] == (MAX_GAMES - 16_384, 16_384) and plan.games_in(3) == 3 * 16_384
    tracemalloc.start()
    job = prepare_simulation(get_game("sunken-city"), 3, MAX_GAMES, seed=MAX_SEED)
    tasks = job.tasks("local")
    assert len(tasks) == len(plan) and tasks[5][0] == 5
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 20_000_000


def test_files_get_the_umask_mode(tmp_path):
    from simcore.base.inputs import umask_mode, write_atomic

    out = tmp_path / "x.txt"
    write_atomic(out, lambda p: Path(p).write_text("hi"))
    assert (out.stat().st_mode & 0o777) == umask_mode()
    assert [p.name for p in tmp_path.iterdir()] == ["x.txt"]


def test_failed_write_leaves_no_file(tmp_path):
    from simcore.base.errors import InputError
    from simcore.base.inputs import write_atomic

    def broken(p):
        Path(p).write_text("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(InputError, match="could not be written"):
        write_atomic(tmp_path / "x.csv", broken)
    assert list(tmp_path.iterdir()) == []


SUBPROCESS = [  # a few only: each process takes seconds to import numpy, pandas and numba
    ["simulate", "sunken-city", "--games", "1e30"],
    ["replay", "sunken-city", "--seed", str(MAX_SEED + 1)],
    ["simulate", "sumeria", "--rules-file", "deep.toml", "-v", "deep", "--out", "/proc/x.csv"],
]


def test_bad_input_in_real_processes(tmp_path):
    """The honest check: real processes (started together), their real stderr."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = []
    for k, args in enumerate(SUBPROCESS):
        folder = tmp_path / str(k)
        folder.mkdir()
        _files(folder)
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "cli.py"), *args],
            cwd=folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        procs.append((args, folder, _snapshot(folder), proc))
    for args, folder, before, proc in procs:
        out, err = proc.communicate(timeout=180)
        assert proc.returncode == 2, (args, err)
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, err)
        assert _snapshot(folder) == before


def test_the_ends_of_every_range_are_accepted():
    """The other side of the table: each declared end itself is valid (off-by-one guard)."""
    from simcore.base.inputs import MAX_INDEX, check_games, check_index, check_seed
    from simcore.base.rulesbase import apply_overrides

    assert check_seed(MAX_SEED) == MAX_SEED and check_index(MAX_INDEX) == MAX_INDEX
    assert check_games(MAX_GAMES) == MAX_GAMES
    for spec in GAMES.values():
        default = spec.rules_cls()
        for f in dataclasses.fields(spec.rules_cls):
            if "range" not in f.metadata:
                continue
            for end in f.metadata["range"]:
                text = _out_of_range(f, getattr(default, f.name), end)
                apply_overrides(default, {f.name: text}, spec.named_values).check_fields()
        for pol in spec.policies.values():
            for w in pol.weights:
                r = spec.weight_range(w)
                for end in (r.lo, r.hi):
                    spec.parse_policies(f"{pol.name}:{w}={end}", spec.min_players)


COMPENSATE = ["compensate", "sunken-city", "-n", "2", "--games", "100", "--max-amount", "2"]


@pytest.mark.parametrize(
    "extra,words",
    [
        ("--resume", "--resume needs --checkpoint FILE"),
        ("--checkpoint afile", "checkpoint 'afile' exists: add --resume"),
        ("--checkpoint afile --resume", "cannot be read (not valid JSON)"),
        ("--checkpoint adir", "is a directory"),
        ("--checkpoint no.json --resume", "does not exist"),
        ("--checkpoint /proc/x.json", "--checkpoint"),
        ("--checkpoint sim.json --resume", "it is not a compensate checkpoint"),
        ("--checkpoint rob.json --resume", "it is not a compensate checkpoint"),
        ("--checkpoint comp.json --resume", "it belongs to a different run"),
        ("--checkpoint comp-old.json --resume", "its format is 0, not 1"),
        ("--backend gpu", "--backend must be local or dask"),
        ("--workers 2", "--scheduler and --workers go with --backend dask"),
        ("--backend dask --workers 0", "--workers must be at least 1"),
        ("--threads 0", "--threads must be at least 1"),
    ],
)
def test_compensate_checkpoint_and_backend_refusals(extra, words, sandbox, monkeypatch, capsys):
    """balance compensate's --checkpoint/--resume and run options: one line, status 2, before
    any game, every file left as it was (another command's checkpoint, another run's)."""
    (sandbox / "comp.json").write_text('{"format": 1, "fingerprint": {}, "played": {}}')
    (sandbox / "comp-old.json").write_text('{"format": 0, "fingerprint": {}, "played": {}}')
    line = assert_refused([*COMPENSATE, *shlex.split(extra)], sandbox, monkeypatch, capsys)
    assert words in line, line


# The seat compensation fields' own refusals (issue #38; docs/compensation.md): an amount the
# components cannot give, through the command line (simulate, and compensate --field).
COMPENSATION = [
    ("seat-traders-beyond-own", "simulate sumeria -n 3 --set seat_traders=0,7", "seat_traders"),
    ("seat-traders-4p", "simulate sumeria -n 4 --set seat_traders=0,0,6", "seat_traders"),
    (
        "seat-seagrass-no-find",
        "simulate secrets-of-the-sea --set seat_seagrass=0,3",
        "seat_seagrass",
    ),
    ("seat-boxes-beyond-deck", "simulate sunken-treasure --set seat_boxes=3,4", "seat_boxes"),
    ("seat-boxes-no-seat", "simulate sunken-treasure -n 2 --set seat_boxes=0,0,1", "seat_boxes"),
    (
        "compensate-boxes-no-boxes",
        "compensate sunken-treasure -n 3 --field seat_boxes --set item_deck=0,4,5,4,2,8,7,5",
        "seat_boxes",
    ),
]


@pytest.mark.parametrize(
    "args,word",
    [(shlex.split(a), w) for _, a, w in COMPENSATION],
    ids=[i for i, _, _ in COMPENSATION],
)
def test_impossible_compensation_is_one_line(args, word, sandbox, monkeypatch, capsys):
    assert word in assert_refused(args, sandbox, monkeypatch, capsys)


# Checks before play, one message per mistake (issue #48, point 7).
def _under_a_file(cases: str) -> list[list[str]]:
    return [shlex.split(line) for line in cases.strip().splitlines()]


UNDER_A_FILE = _under_a_file(
    f"""
simulate sunken-city --out afile/x.csv
simulate sunken-city --checkpoint afile/x.json
replay sunken-city --out afile/x.txt
sweep sunken-city --param chip_supply=4,8 --out afile/x.png
report sunken-city --out afile/x
robustness sunken-city --out afile/x
robustness sunken-city --checkpoint afile/x.json
ladder pig --out afile/x.png
ladder pig --checkpoint afile/x.json
tune-players sunken-city --out afile/x.toml
tune-players sunken-city --out w.toml --storage afile/s.db
{TUNE} --plot afile/x.png
compensate sunken-city -n 2 --checkpoint afile/x.json
"""
)


@pytest.mark.parametrize("args", UNDER_A_FILE, ids=[" ".join(a[:1] + a[-2:]) for a in UNDER_A_FILE])
def test_a_path_under_a_regular_file_says_it_is_a_file(args, sandbox, monkeypatch, capsys):
    """--out, --plot, --checkpoint, --storage under a regular file: every command says so,
    naming the option given."""
    line = assert_refused(args, sandbox, monkeypatch, capsys)
    assert "'afile' is a file, not a folder" in line and f"{args[-2]} 'afile/" in line, line


# ladder and robustness --ladder: the same refusals of the same rung options, for a game with
# search (sumeria) and for one without decisions (chutes-and-ladders)
RUNG_OPTIONS = [
    ("--top-budget 0", "--top-budget must be a whole number from 1 to"),
    ("--top-budget 200000", "--top-budget must be a whole number from 1 to"),
    ("--search-rungs 13", "--search-rungs must be a whole number from 0 to 12, not 13"),
    ("--search-rungs -1", "--search-rungs must be a whole number from 0 to 12, not -1"),
]


@pytest.mark.parametrize("game", ["sumeria", "chutes-and-ladders"])
@pytest.mark.parametrize("option,words", RUNG_OPTIONS, ids=[o for o, _ in RUNG_OPTIONS])
def test_ladder_and_robustness_refuse_the_same_rung_options(
    game, option, words, sandbox, monkeypatch, capsys
):
    lines = [
        assert_refused([*head, *shlex.split(option)], sandbox, monkeypatch, capsys)
        for head in (["ladder", game], ["robustness", game, "--ladder"])
    ]
    assert words in lines[0] and lines[0] == lines[1], lines


def test_a_top_budget_for_a_game_without_search_is_refused_alike(sandbox, monkeypatch, capsys):
    lines = [
        assert_refused([*head, "--top-budget", "8"], sandbox, monkeypatch, capsys)
        for head in (
            ["ladder", "chutes-and-ladders"],
            ["robustness", "chutes-and-ladders", "--ladder"],
        )
    ]
    assert lines[0] == lines[1] and "--top-budget: chutes-and-ladders has no decisions" in lines[0]


NAMED = [
    ("report sumeria -n 3 --strong random,random --out rep", "--strong gives 2 players"),
    (f"{TUNE} --plot p.txt", "--plot 'p.txt' must end in"),
    (f"{TUNE} --plot adir", "--plot 'adir' is a directory"),
    ("tune-players chutes-and-ladders --out w.toml", "has no player with weights"),
    ("compare sunken-city --variant base --variant turbo", "unknown variant"),
    ("compare sunken-city --variant base", "at least two arms"),
    ("compare sunken-city --set-arm colour=red", "unknown rules key"),
    ("compare sunken-city --set-arm chips", "key=value"),
    ("compare sunken-city --set-arm die=green", "neither a name"),
    ("compare sunken-city --variant base --variant short --games 1", "2"),
    ("compare sunken-city --players 5 --set-arm die=black", "2 to 4 players"),
    ("dice sunken-city --players 2,5", "2 to 4 players"),
    ("dice sunken-city --players two", "--players"),
    ("dice sunken-city --players 2,2", "twice"),
    ("dice sunken-city --die green", "neither a name"),
    ("dice sunken-city --die -1,2", "die"),
    ("dice sumeria --players 3", "die rules field"),
    ("sweep sunken-city --param colour=1,2 --games 20", "not a rules field"),
    ("sweep sunken-city --param chips=true,maybe --games 20", "true or false"),
    ("sweep sunken-city --param die=0,1,1 --games 20", "';'"),
    ("sweep sunken-city --games 20", "--param"),
    ("sweep sunken-city --param chips=true,false --metric fun --games 20", "not a metric"),
    ("sweep sunken-city --param chips=true,false --out x.txt --games 20", ".png"),
    ("report chess", "unknown game"),
    ("report sunken-city --games 5", "at least 12"),
    ("report sunken-city --policy genius", "unknown policy"),
    ("robustness sunken-city --top-budget 2", "--top-budget is an option of --ladder"),
    ("robustness sunken-city --search-games 20", "--search-games is an option of --ladder"),
    ("robustness sunken-city --ladder --top-budget 0", "--top-budget must be"),
    ("robustness sunken-city --ladder --search-rungs 13", "--search-rungs must be"),
    ("robustness sunken-city --ladder -g 5", "at least 10 per setting for a rating"),
    ("robustness sunken-city --ladder --search-games 3", "--search-games must be at least"),
    ("robustness sunken-city --ladder --search-games x", "--search-games"),
    ("robustness chutes-and-ladders --ladder -n 1", "--players 2 or more"),
    ("robustness chutes-and-ladders --ladder --top-budget 8", "--top-budget"),
    ("train pig --games 100 --curve 5 --out m.npz", "--curve must be at least 10 games"),
    ("train pig --games 100 --curve abc --out m.npz", "--curve must be a whole number"),
    ("train pig --games 100 --plot c.png --out m.npz", "give --curve GAMES too"),
    ("train pig --games 100 --curve 20 --plot c.txt --out m.npz", "--plot 'c.txt' must end"),
]


@pytest.mark.parametrize("line,words", NAMED, ids=[line for line, _ in NAMED])
def test_a_refusal_names_the_option_given(line, words, sandbox, monkeypatch, capsys):
    refusal = assert_refused(shlex.split(line), sandbox, monkeypatch, capsys)
    assert words in refusal and not refusal.rstrip(")").endswith("of "), refusal


# compensate --resume: every restored play checked whole before any game, the file untouched
SAVED = "compensate sunken-city -n 2 --games 100 --confirm-games 300 --level-games 60 "
SAVED += "--field seat_points --max-amount 2 --level balanced --seed 7 --checkpoint ck.json"


@pytest.fixture(scope="module")
def saved_plays(tmp_path_factory) -> dict:
    """The checkpoint of SAVED stopped after its first play (the baseline, 100 games)."""
    from typer.testing import CliRunner

    from simcore.studies.compensate import PlayJob

    folder = tmp_path_factory.mktemp("saved")
    fold = PlayJob.fold

    def stop_after_the_first(self, i, result):
        if self.key.startswith("seed 7/100 games/"):
            return fold(self, i, result)
        raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        mp.setattr(PlayJob, "fold", stop_after_the_first)
        res = CliRunner().invoke(cli.app, shlex.split(SAVED))
    assert res.exit_code == 130, res.output
    data = json.loads((folder / "ck.json").read_text())
    assert len(data["played"]) == 1
    return data


LEVEL = "seed 8/60 games/balanced,balanced/none (the rulebook)"  # the level check's rulebook


def _with_a_level_play(data: dict, kind: str = "") -> dict:
    """The checkpoint with a play of the level check beside the baseline (the same rules and
    players; played after the calibration and the screening), damaged in one way (kind, of
    CHECKPOINT_PLAYS) or not."""
    ((base_key, base),) = data["played"].items()
    play = dict(base, seat_wins=[20, 30], shared_wins=0)
    keys = {
        "other-seed": LEVEL.replace("seed 8/", "seed 80/"),
        "no-games": LEVEL.replace("/60 games/", "/0 games/"),
        "unknown-player": LEVEL.replace("balanced,balanced", "genius,genius"),
        "unknown-field": LEVEL.replace("none (the rulebook)", "colour=red"),
        "not-a-key": "the level check",
    }
    damage = {
        "seat-wins-short": dict(play, seat_wins=[20]),
        "seat-wins-negative": dict(play, seat_wins=[-1, 30]),
        "seat-wins-text": dict(play, seat_wins=["20", 30]),
        "more-wins-than-games": dict(play, shared_wins=11),
        "other-rules": dict(play, rules_hash="0" * 16),
        "other-players": dict(play, policies=[["greedy", []], ["greedy", []]]),
        "wrong-fields": {k: v for k, v in play.items() if k != "policies"},
        "not-an-object": [20, 30],
    }
    if kind == "plays-a-list":
        return dict(data, played=[base_key, LEVEL])
    return dict(data, played={base_key: base, keys.get(kind, LEVEL): damage.get(kind, play)})


CHECKPOINT_PLAYS = {
    "seat-wins-short": "its seat_wins are not 2 counts",
    "seat-wins-negative": "its seat_wins are not 2 counts",
    "seat-wins-text": "its seat_wins are not 2 counts",
    "more-wins-than-games": "its wins are not of its 60 games",
    "other-rules": "its rules or players differ",
    "other-players": "its rules or players differ",
    "wrong-fields": "has the wrong fields",
    "not-an-object": "has the wrong fields",
    "other-seed": "is not a play of this run",
    "no-games": "is not a play of this run",
    "unknown-player": "is not a play of this run",
    "unknown-field": "is not a play of this run",
    "not-a-key": "is not a play of this run",
    "plays-a-list": "its plays are not an object",
}


@pytest.mark.parametrize("kind", CHECKPOINT_PLAYS)
def test_a_damaged_compensate_play_is_refused_before_any_game(
    kind, saved_plays, sandbox, monkeypatch, capsys
):
    """A damaged play of a late stage (the level check): one line naming the file and the
    play, status 2, no game played (the sandbox: the calibration would be the first), the
    checkpoint byte for byte as it was."""
    (sandbox / "ck.json").write_text(json.dumps(_with_a_level_play(saved_plays, kind)))
    line = assert_refused([*shlex.split(SAVED), "--resume"], sandbox, monkeypatch, capsys)
    assert "checkpoint 'ck.json' is refused" in line and CHECKPOINT_PLAYS[kind] in line, line


def test_an_undamaged_compensate_checkpoint_is_taken(saved_plays, sandbox, monkeypatch):
    (sandbox / "ck.json").write_text(json.dumps(_with_a_level_play(saved_plays)))
    monkeypatch.setattr(sys, "argv", ["balance", *shlex.split(SAVED), "--resume"])
    with pytest.raises(AssertionError, match="a game was played"):
        cli.main()  # past every check: the next play (the calibration) is the guard's
