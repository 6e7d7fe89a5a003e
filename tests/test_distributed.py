"""Beyond one machine: the Dask backend gives the local result, survives a lost worker; runs
interrupted (SIGKILL, SIGINT) resume from their checkpoint to the uninterrupted result."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from simcore import simulate
from simcore.runner import Interrupted

distributed = pytest.importorskip("distributed")


def test_dask_cluster_gives_the_local_result():
    local = simulate("sunken-city", 3, 12_000, seed=3, policies="random", chunk_size=3000)
    dask = simulate(
        "sunken-city",
        3,
        12_000,
        seed=3,
        policies="random",
        chunk_size=1000,
        backend="dask",
        workers=2,
    )
    assert dask.summary.equals(local.summary)


def test_lost_worker_chunks_are_recomputed():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    client = Client(cluster)
    try:
        expected = simulate("sunken-city", 3, 6000, seed=8, chunk_size=200)
        pids = list(client.run(os.getpid).values())
        killed = {}

        def kill_one():
            # once chunks are being processed, SIGKILL one worker process
            deadline = time.time() + 120
            while time.time() < deadline:
                busy = [
                    t
                    for k, t in list(cluster.scheduler.tasks.items())
                    if "balance-chunk" in str(k) and t.state == "processing"
                ]
                if busy:
                    time.sleep(0.3)
                    os.kill(pids[0], signal.SIGKILL)
                    killed["at"] = time.time()
                    return
                time.sleep(0.005)

        killer = threading.Thread(target=kill_one)
        killer.start()
        got = simulate(
            "sunken-city",
            3,
            6000,
            seed=8,
            chunk_size=200,
            backend="dask",
            scheduler=cluster.scheduler_address,
        )
        finished = time.time()
        killer.join()
        assert "at" in killed and killed["at"] < finished  # it died while the run went on
        with pytest.raises(ProcessLookupError):
            os.kill(pids[0], 0)
        assert got.summary.equals(expected.summary)
    finally:
        client.close()
        cluster.close()


RUN = """
import sys
from simcore import simulate
simulate("sunken-city", 3, 4000, seed=5, chunk_size=200, checkpoint=sys.argv[1])
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
        "sunken-city", 3, 4000, seed=5, chunk_size=200, checkpoint=str(ckpt), resume=True
    )
    whole = simulate("sunken-city", 3, 4000, seed=5, chunk_size=200)
    assert resumed.games == 4000 and resumed.summary.equals(whole.summary)


def test_checkpoint_of_another_run_is_refused(tmp_path):
    from simcore import RulesError

    ckpt = tmp_path / "run.ckpt"
    simulate("sunken-city", 3, 400, seed=1, policies="random", chunk_size=100, checkpoint=str(ckpt))
    with pytest.raises(RulesError, match="exists"):
        simulate(
            "sunken-city", 3, 400, seed=1, policies="random", chunk_size=100, checkpoint=str(ckpt)
        )
    with pytest.raises(RulesError, match="different run"):
        simulate(
            "sunken-city",
            3,
            400,
            seed=2,
            policies="random",
            chunk_size=100,
            checkpoint=str(ckpt),
            resume=True,
        )


def test_sigint_gives_a_partial_result(tmp_path):
    """Ctrl-C: Interrupted carries the summary of the completed chunks, marked partial."""

    def interrupt():
        time.sleep(3.0)
        os.kill(os.getpid(), signal.SIGINT)

    t = threading.Thread(target=interrupt)
    t.start()
    with pytest.raises(Interrupted) as exc:
        simulate("sunken-city", 3, 200_000, seed=2, chunk_size=200)
    t.join()
    res = exc.value.result
    assert res.partial and 0 < res.games < 200_000 and res.games % 200 == 0
    assert res.summary.games == res.games


TIMING = ("elapsed_s", "games_per_s", "threads")


def _cli_json(*args):
    out = subprocess.run(
        [sys.executable, "-c", "from cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    return {k: v for k, v in json.loads(out).items() if k not in TIMING}


def test_cli_dask_json_equals_local():
    base = [
        "simulate",
        "sunken-city",
        "--players",
        "3",
        "--games",
        "6000",
        "--seed",
        "4",
        "--policy",
        "random",
        "--json",
    ]
    assert _cli_json(*base, "--backend", "dask", "--workers", "2") == _cli_json(*base)


def test_cli_sigint_prints_a_marked_partial_summary(tmp_path):
    out = tmp_path / "rows.csv"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from cli import main; main()",
            "simulate",
            "sunken-city",
            "--games",
            "1e6",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(8.0)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert "PARTIAL" in stderr and "PARTIAL" in stdout
    assert "Traceback" not in stderr
    assert not out.exists()  # no output file claiming to be complete
