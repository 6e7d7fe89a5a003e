"""Beyond one machine: the Dask backend gives the local result, survives a lost worker; runs
interrupted (SIGKILL, SIGINT) resume from their checkpoint to the uninterrupted result."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from analysis.summary import records
from simcore import get_game, simulate
from simcore.run.runner import Interrupted
from simcore.studies.compare import set_arm, variant_arm
from tests.conftest import compare, dice_analysis, sweep
from tests.test_cli import run_main

distributed = pytest.importorskip("distributed")


def test_dask_cluster_gives_the_local_result():
    local = simulate(get_game("sunken-city"), 3, 12_000, seed=3, policies="random", chunk_size=3000)
    dask = simulate(
        get_game("sunken-city"),
        3,
        12_000,
        seed=3,
        policies="random",
        chunk_size=1000,
        backend="dask",
        workers=2,
    )
    assert dask.summary.equals(local.summary)


def _kill_a_worker_once_busy(cluster, pid: int, killed: dict) -> threading.Thread:
    """A thread that SIGKILLs worker process `pid` once chunks are being processed."""

    def kill_one():
        deadline = time.time() + 120
        while time.time() < deadline:
            busy = [
                t
                for k, t in list(cluster.scheduler.tasks.items())
                if "balance-chunk" in str(k) and t.state == "processing"
            ]
            if busy:
                time.sleep(0.3)
                os.kill(pid, signal.SIGKILL)
                killed["at"] = time.time()
                return
            time.sleep(0.005)

    thread = threading.Thread(target=kill_one)
    thread.start()
    return thread


def _comparison_json(comp) -> str:
    return json.dumps(_no_timing(comp.to_json()), sort_keys=True)


@pytest.mark.parametrize("what", ["simulate", "compare"])
def test_lost_worker_chunks_are_recomputed(what):
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    client = Client(cluster)
    arms = [variant_arm("base"), variant_arm("no-chips")]
    try:
        if what == "simulate":
            # enough chunks that the run is still going when a worker is killed, however fast
            expected = simulate(get_game("sunken-city"), 3, 30000, seed=8, chunk_size=200)
        else:
            # as many chunks as simulate's: random players' games are fast, and with fewer
            # the run could end before the worker dies (the kill waits 0.3 s once busy)
            expected = compare(get_game("sunken-city"), 3, arms, 15000, seed=8, policies="random")
        pids = list(client.run(os.getpid).values())
        killed: dict = {}
        killer = _kill_a_worker_once_busy(cluster, pids[0], killed)
        if what == "simulate":
            got = simulate(
                get_game("sunken-city"),
                3,
                30000,
                seed=8,
                chunk_size=200,
                backend="dask",
                scheduler=cluster.scheduler_address,
            )
        else:
            got = compare(
                get_game("sunken-city"),
                3,
                arms,
                15000,
                seed=8,
                policies="random",
                chunk_size=100,
                backend="dask",
                scheduler=cluster.scheduler_address,
            )
        finished = time.time()
        killer.join()
        assert "at" in killed and killed["at"] < finished  # it died while the run went on
        with pytest.raises(ProcessLookupError):
            os.kill(pids[0], 0)
        if what == "simulate":
            assert got.summary.equals(expected.summary)
        else:
            assert _comparison_json(got) == _comparison_json(expected)
    finally:
        client.close()
        cluster.close()


RUN = """
import sys
from simcore import get_game, simulate
simulate(get_game("sunken-city"), 3, 4000, seed=5, chunk_size=200, checkpoint=sys.argv[1])
"""


@pytest.mark.parametrize("kill_after_chunks", [1, 4, 9])
def test_sigkill_then_resume_gives_the_uninterrupted_result(tmp_path, kill_after_chunks):
    ckpt = tmp_path / "run.ckpt"
    proc = subprocess.Popen([sys.executable, "-c", RUN, str(ckpt)])
    deadline = time.time() + 240
    while time.time() < deadline:
        if ckpt.exists():
            try:
                if json.loads(ckpt.read_text())["chunks_done"] >= kill_after_chunks:
                    break
            except (ValueError, KeyError):
                pass  # never half-written: the file is replaced atomically
        if proc.poll() is not None:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = json.loads(ckpt.read_text())["chunks_done"]
    assert done >= 1
    resumed = simulate(
        get_game("sunken-city"), 3, 4000, seed=5, chunk_size=200, checkpoint=str(ckpt), resume=True
    )
    whole = simulate(get_game("sunken-city"), 3, 4000, seed=5, chunk_size=200)
    assert resumed.games == 4000 and resumed.summary.equals(whole.summary)


def test_checkpoint_of_another_run_is_refused(tmp_path):
    from simcore.base.errors import InputError

    ckpt = tmp_path / "run.ckpt"
    game = get_game("sunken-city")

    def run(seed: int = 1, **kw):
        simulate(
            game, 3, 400, seed=seed, policies="random", chunk_size=100, checkpoint=str(ckpt), **kw
        )

    run()
    with pytest.raises(InputError, match="exists"):
        run()
    with pytest.raises(InputError, match="different run"):
        run(seed=2, resume=True)


def test_sigint_gives_a_partial_result(tmp_path):
    """Ctrl-C: Interrupted carries the summary of the completed chunks, marked partial."""

    done = threading.Event()

    def interrupt():
        # Ctrl-C after 3 s, pressed again every half second until the run stops (a signal
        # that lands inside numba's dispatcher on a loaded machine can be lost)
        time.sleep(3.0)
        for _ in range(40):
            if done.is_set():
                return
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)

    def on_sigint(signum, frame):
        if not done.is_set():  # a late press after the run stopped is ignored
            raise KeyboardInterrupt

    simulate(get_game("sunken-city"), 3, 10, seed=2)  # kernels loaded before the clock starts
    old = signal.signal(signal.SIGINT, on_sigint)
    t = threading.Thread(target=interrupt)
    t.start()
    try:
        with pytest.raises(Interrupted) as exc:
            simulate(get_game("sunken-city"), 3, 200_000, seed=2, chunk_size=200)
    finally:
        done.set()
        t.join()
        signal.signal(signal.SIGINT, old)
    res = exc.value.result
    assert res.partial and 0 < res.games < 200_000 and res.games % 200 == 0
    assert res.summary.games == res.games


TIMING = ("elapsed_s", "games_per_s", "threads")
BALANCE = [sys.executable, "-c", "from cli import main; main()"]  # the command, in a process


def _cli_json(*args):
    out = subprocess.run(
        [*BALANCE, *args], capture_output=True, text=True, timeout=300, check=True
    ).stdout
    return {k: v for k, v in json.loads(out).items() if k not in TIMING}


def _cli_started(*args) -> subprocess.Popen:
    """`balance ARGS` started in its own process, its stdout and stderr piped."""
    return subprocess.Popen(
        [*BALANCE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def test_cli_dask_json_equals_local():
    base = "simulate sunken-city --players 3 --games 6000 --seed 4 --policy random --json".split()
    assert _cli_json(*base, "--backend", "dask", "--workers", "2") == _cli_json(*base)


def test_cli_sigint_prints_a_marked_partial_summary(tmp_path):
    out = tmp_path / "rows.csv"
    proc = _cli_started("simulate", "sunken-city", "--games", "1e6", "--out", str(out))
    time.sleep(15.0)  # well into the run even on a loaded machine (0 chunks done is fine)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert "PARTIAL" in stderr and "PARTIAL" in stdout
    assert "Traceback" not in stderr
    assert not out.exists()  # no output file claiming to be complete


# ------------------------------------------------------------------ compare, dice, sweep, report
SC = "sunken-city"
TIMING_KEYS = {"elapsed_s", "games_per_s", "threads", "wall_s", "backend", "command"}


def _no_timing(obj):
    """A JSON value without its timing and provenance fields (at any depth)."""
    if isinstance(obj, dict):
        return {k: _no_timing(v) for k, v in obj.items() if k not in TIMING_KEYS}
    if isinstance(obj, list):
        return [_no_timing(v) for v in obj]
    return obj


@pytest.fixture(scope="module")
def scheduler():
    """The address of a local cluster of 2 worker processes, shared by the tests below."""
    from distributed import LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    yield cluster.scheduler_address
    cluster.close()


def test_compare_on_a_cluster_gives_the_local_json(scheduler):
    """Every arm's chunks spread over 2 workers, in chunks of another size: the same JSON."""
    arms = [variant_arm("base"), variant_arm("no-chips"), set_arm("die=black")]
    kw = dict(seed=2, policies="random")
    local = compare(get_game(SC), 3, arms, 2000, **kw)
    dask = compare(
        get_game(SC), 3, arms, 2000, **kw, chunk_size=700, backend="dask", scheduler=scheduler
    )
    assert _comparison_json(dask) == _comparison_json(local)


def test_dice_on_a_cluster_gives_the_local_table(scheduler):
    kw = dict(dice=["1,1,2,2,3,3"], seed=4, policies="random")
    local = dice_analysis(get_game(SC), [2, 3], 2000, **kw)
    dask = dice_analysis(
        get_game(SC), [2, 3], 2000, **kw, chunk_size=300, backend="dask", scheduler=scheduler
    )
    assert json.dumps(records(dask["table"])) == json.dumps(records(local["table"]))
    assert dask["verdicts"] == local["verdicts"]


def test_sweep_on_a_cluster_gives_the_local_table(scheduler):
    params = ["chips=true,false", "die=beige,black"]
    kw = dict(seed=6, policies="random")
    local = sweep(get_game(SC), 3, params, 1500, **kw)
    dask = sweep(get_game(SC), 3, params, 1500, **kw, backend="dask", scheduler=scheduler)
    assert json.dumps(records(dask["table"])) == json.dumps(records(local["table"]))


def test_report_on_a_cluster_gives_the_local_report(scheduler, small_report, tmp_path):
    """The same numbers (report.json), the same Markdown apart from the provenance's command,
    wall time and backend, the same plots (PNG bytes) as the local report of the fixture."""
    from analysis.render import package_version
    from analysis.report import write_report
    from simcore.studies.report import play_report

    local, _ = small_report
    dask = tmp_path / "dask"
    runs = play_report(
        get_game(SC), 120, 1, "random", echo=lambda _: None, backend="dask", scheduler=scheduler
    )
    write_report(
        runs, dask, version=package_version(), command="balance report", echo=lambda _: None
    )
    js = [json.loads((d / "report.json").read_text()) for d in (local, dask)]
    assert _no_timing(js[1]) == _no_timing(js[0])

    def numbers(d):
        lines = (d / "report.md").read_text().splitlines()
        return [x for x in lines if not x.startswith(("- command", "- wall time", "- backend"))]

    assert numbers(dask) == numbers(local)
    pngs = sorted(p.name for p in local.glob("*.png"))
    assert pngs and pngs == sorted(p.name for p in dask.glob("*.png"))
    assert all((local / p).read_bytes() == (dask / p).read_bytes() for p in pngs)
    assert [p.name for p in tmp_path.iterdir()] == ["dask"]  # no temporary folder left


def test_cli_compare_on_a_local_cluster_gives_the_local_json():
    """`--backend dask --workers 2`: the command starts (and stops) its own cluster."""
    from typer.testing import CliRunner

    import cli

    base = ["compare", SC, "--variant", "base", "--set-arm", "die=black", "--games", "600"]
    base += ["--policy", "random", "--seed", "3", "--json"]
    local = CliRunner().invoke(cli.app, base)
    assert local.exit_code == 0, local.output
    expected = {k: v for k, v in json.loads(local.output).items() if k not in TIMING}
    assert _cli_json(*base, "--backend", "dask", "--workers", "2") == expected


DASK_BAD = [
    (
        ["compare", SC, "--set-arm", "die=black", "--backend", "dask", "--workers", "0"],
        "at least 1",
    ),
    (["dice", SC, "--workers", "2"], "go with --backend dask"),
    (
        ["sweep", SC, "--param", "chips=true,false", "--backend", "dask", "--scheduler", "nowhere"],
        "cannot reach the Dask scheduler at 'nowhere'",
    ),
    (["report", SC, "--backend", "dask", "--scheduler", "tcp://h:1", "--workers", "2"], "not both"),
    (["simulate", SC, "--backend", "spark"], "local or dask"),
]


@pytest.mark.parametrize("args,needle", DASK_BAD)
def test_bad_backend_input_is_one_error_line(args, needle, monkeypatch, capsys):
    code, out, err = run_main([*args, "--games", "20"], monkeypatch, capsys)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], err


def test_backend_dask_without_dask_installed(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a, **k: None if name == "distributed" else real(name, *a, **k),
    )
    code, _, err = run_main(
        ["compare", SC, "--set-arm", "die=black", "--backend", "dask", "--workers", "2"],
        monkeypatch,
        capsys,
    )
    assert code == 2
    assert err.strip() == (
        "error: --backend dask needs the 'distributed' extra: "
        "pip install 'balance-analyser[distributed]'"
    )


def test_cli_sigint_during_a_report_leaves_no_report(tmp_path):
    """Ctrl-C while the report's games are played: one error line, status 130, no folder."""
    out = tmp_path / "rep"
    proc = _cli_started("report", SC, "--out", str(out), "--policy", "random", "--games", "3e5")
    while "playing" not in (line := proc.stderr.readline()):  # progress is on stderr
        assert line, "the report ended before its games started"
    time.sleep(2.0)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert stdout == ""
    lines = stderr.strip().splitlines()
    assert lines[-1] == "error: interrupted; no output file was written"
    assert sum("error" in line for line in lines) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_many_chunks_go_through_a_bounded_window(scheduler, monkeypatch):
    """300 chunks on 2 worker threads: never more than the window (WINDOW_MIN = 16 here) in
    flight, submitted in plan order, and the result is the local one (rows included)."""
    import simcore.run.distributed as dist

    real = dist.dask_client
    submitted, most = [], [0]

    class Counting:
        def __init__(self, client):
            self.client = client

        def __getattr__(self, name):
            return getattr(self.client, name)

        def submit(self, *args, **kw):
            most[0] = max(most[0], sum(not f.done() for f in submitted) + 1)
            fut = self.client.submit(*args, **kw)
            submitted.append(fut)
            return fut

    def counting_client(scheduler, workers):
        client, cluster = real(scheduler, workers)
        return Counting(client), cluster

    monkeypatch.setattr(dist, "dask_client", counting_client)
    kw = dict(seed=8, policies="random", keep_rows=True, chunk_size=10)
    dask = simulate(get_game(SC), 3, 3000, backend="dask", scheduler=scheduler, **kw)
    local = simulate(get_game(SC), 3, 3000, **kw)
    assert len(submitted) == 300
    assert most[0] <= dist.WINDOW_MIN
    assert [int(f.key.rsplit("-", 1)[1]) for f in submitted] == sorted(
        int(f.key.rsplit("-", 1)[1]) for f in submitted
    )
    assert dask.rows.equals(local.rows) and dask.summary.equals(local.summary)
