"""What a run tells the user while it starts and plays (issue #22): the cold-start line, the
progress bar's rate only once games are played, `balance games` aligned for long keys. No
game is played here."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from analysis import render
from simcore.frame.registry import all_games
from simcore.run import chunks
from simcore.run.jobs import Progress


def test_bar_shows_no_rate_before_the_first_games(capsys):
    bar = Progress(1000, True)
    bar.update(0, force=True)
    err = capsys.readouterr().err
    assert "starting" in err and "games/s" not in err and "inf" not in err
    bar.update(500, force=True)
    assert "games/s ETA" in capsys.readouterr().err


def test_resumed_bar_counts_only_this_runs_games(capsys):
    bar = Progress(1000, True, start=600)
    bar.update(600, force=True)
    assert "starting" in capsys.readouterr().err
    bar.t0 -= 1.0  # one second of this run
    bar.update(700, force=True)
    err = capsys.readouterr().err
    rate = int(err.split(" games/s")[0].split()[-1].replace(",", ""))
    assert 90 <= rate <= 100  # 100 games in about a second, not 700


def test_cold_start_says_so(monkeypatch, capsys):
    calls = []
    spec = SimpleNamespace(
        title="Sunken City (basic game seed 000)",
        play_batch=lambda *a: calls.append(a),
        pack=lambda rules, players: np.zeros(1, np.int64),
        policy_arrays=lambda seats: (np.zeros(1, np.int64), np.zeros((1, 1))),
        columns=["a"],
    )
    monkeypatch.setattr(chunks, "kernels_cached", lambda s: False)
    chunks.warm_kernels(spec, 3, None, [], False, False)
    err = capsys.readouterr().err
    assert err == "compiling the Sunken City kernels, first run only: about a minute\n"
    monkeypatch.setattr(chunks, "kernels_cached", lambda s: True)
    chunks.warm_kernels(spec, 3, None, [], False, False)
    assert capsys.readouterr().err == "" and len(calls) == 2


def test_games_columns_align_for_long_keys():
    lines: list[str] = []
    render.games(all_games(), False, lines.append)
    # within a game, the '=' of every rules field with a short default stands in one column
    columns: list[set[int]] = []
    in_rules = False
    for ln in lines:
        if not ln.startswith(" "):
            in_rules = False
        elif ln.startswith("  rules fields"):
            in_rules = True
            columns.append(set())
        elif in_rules and ln[4] != " " and " = " in ln:
            columns[-1].add(ln.index(" = "))
    assert len(columns) == len(all_games()) and all(len(c) == 1 for c in columns)
