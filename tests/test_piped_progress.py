"""Progress when stderr is not a terminal (issue #35: `make report > log 2>&1` printed nothing
for minutes, then every line at the end): report and robustness write one flushed line per
finished setting as it finishes, on stderr; `--json` keeps stdout JSON alone. Checked against
the order of the work: each setting's line is written after its last chunk is folded and
before the next setting's first chunk."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cli
import simcore.run.jobs as jobs_module

ROOT = Path(__file__).resolve().parents[1]


class Log:
    """A non-terminal stderr that records each write and each flush beside the folds."""

    def __init__(self, events: list):
        self.events = events

    def write(self, text: str) -> int:
        self.events.append(("write", text))
        return len(text)

    def flush(self) -> None:
        self.events.append(("flush", ""))

    def isatty(self) -> bool:
        return False


@pytest.fixture
def events(monkeypatch):
    """Every stderr write and flush, and every chunk folded (job label), in order."""
    log: list = []
    run_jobs = jobs_module.run_jobs

    def recording(jobs, **kw):
        for job in jobs:
            fold = job.fold

            def traced(i, result, fold=fold, job=job):
                log.append(("fold", job.label))
                return fold(i, result)

            job.fold = traced
        return run_jobs(jobs, **kw)

    monkeypatch.setattr(jobs_module, "run_jobs", recording)
    return log


def run_logged(args, log, monkeypatch, capsys) -> tuple[int, str]:
    """`balance ARGS` in this process with stderr the Log (set here, after capsys took its
    own): (exit status, stdout)."""
    monkeypatch.setattr(sys, "argv", ["balance", *args])
    monkeypatch.setattr(sys, "stderr", Log(log))
    code = 0
    try:
        cli.main()
    except SystemExit as exc:
        code = exc.code
    return code, capsys.readouterr().out


def _lines_follow_their_settings(log: list) -> int:
    """Each progress line comes after the last fold of its job, before any fold of a later
    job, and is flushed at once; returns the number of lines."""
    lines = 0
    for k, (kind, text) in enumerate(log):
        if kind != "write" or "] " not in text or "games in" not in text:
            continue
        label = text.split("] ", 1)[1].split(":")[0]
        before = [t for kd, t in log[:k] if kd == "fold"]
        after = [t for kd, t in log[k + 1 :] if kd == "fold"]
        assert before and before[-1] == label, (label, before[-3:])
        assert label not in after, label
        assert log[k + 1][0] == "flush", "the line is flushed as it is written"
        lines += 1
    return lines


def test_robustness_writes_a_line_per_setting_as_it_finishes(events, monkeypatch, capsys):
    args = [
        "robustness",
        "pig",
        "--games",
        "40",
        "--json",
        "--setting",
        "random",
        "--setting",
        "optimal",
    ]
    code, out = run_logged(args, events, monkeypatch, capsys)
    assert code == 0
    js = json.loads(out)
    assert _lines_follow_their_settings(events) == len(js["settings"]) == 3


def test_report_writes_a_line_per_setting_as_it_finishes(events, tmp_path, monkeypatch, capsys):
    args = ["report", "pig", "--games", "60", "--out", str(tmp_path / "rep")]
    code, out = run_logged(args, events, monkeypatch, capsys)
    assert code == 0 and out.startswith("report written to ")  # progress is stderr's
    err = "".join(text for kind, text in events if kind == "write")
    played = int(err.split(" games in ")[1].split(" settings")[0])
    assert _lines_follow_their_settings(events) == played


def test_piped_processes(tmp_path):
    """Real pipes: the lines are on stderr, one per setting; stdout of --json is JSON alone."""
    cmd = [sys.executable, "-m", "cli", "robustness", "pig", "-g", "20", "--json"]
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert res.returncode == 0, res.stderr
    js = json.loads(res.stdout)
    lines = [ln for ln in res.stderr.splitlines() if "games in" in ln]
    assert len(lines) == len(js["settings"])
    assert [ln.split("]")[0].strip() for ln in lines] == [
        f"[{k}/{len(lines)}" for k in range(1, len(lines) + 1)
    ]
