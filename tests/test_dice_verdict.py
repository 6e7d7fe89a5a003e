"""The dice verdict on synthetic dice (no game engine): a die is called the fairest only when
its largest seat gap is significantly smaller than every other die's (paired on the same
games, Holm over every die and player count); two equally fair dice give no winner."""

from __future__ import annotations

import gc
from types import SimpleNamespace

import numpy as np
import pandas as pd

from analysis.compare import dice_tables
from simcore.base.metrics import game_metrics, metric_list
from simcore.run.chunks import Summary
from simcore.studies.compare import Arm, arm_moments

SPEC = SimpleNamespace(game_counters=[], seat_counters=[], columns=[])


def _winners(u: np.ndarray, probs) -> np.ndarray:
    """The outright winner of each game from its uniform draw u: seat s with probability
    probs[s], -1 (a shared first place) with the rest."""
    edges = np.cumsum(probs)
    w = np.searchsorted(edges, u, side="right")
    return np.where(w >= len(probs), -1, w)


def synthetic_run(players: int, dice: dict[str, list[float]], games: int, rng, share=0.5):
    """An ArmRun-like object of dice whose games share part of their randomness (common
    random numbers): in a `share` of the games every die draws its winner from the same
    uniform number, in the others from its own."""
    metrics = metric_list(SPEC, players)
    common = rng.random(games)
    mine = rng.random((len(dice), games))
    use_common = rng.random(games) < share
    moments = arm_moments(len(dice), metrics, players)
    block, results, arms = [], [], []
    for a, (name, probs) in enumerate(dice.items()):
        winner = _winners(np.where(use_common, common, mine[a]), probs)
        rows = pd.DataFrame(
            {
                "winner": winner,
                "win_mask": np.where(winner >= 0, 1 << np.maximum(winner, 0), 3),
                "rounds": 8 + (winner == 0),
                "turns": 24 + (winner == 1),
                **{f"score_{s}": 5 + (winner == s) for s in range(players)},
            }
        )
        block.append(game_metrics(rows, metrics, players))
        s = Summary(players, 1, 1, [])
        s.games = games
        s.seat_wins = np.bincount(winner[winner >= 0], minlength=players)
        s.shared_wins = int(np.count_nonzero(winner < 0))
        results.append(SimpleNamespace(summary=s, games=games))
        arms.append(Arm(name, (), (("die", name),)))
    moments.add(np.stack(block))
    run = SimpleNamespace(spec=SPEC, players=players, arms=arms, metrics=metrics)
    run.results, run.moments = results, moments
    run.index = {m.name: j for j, m in enumerate(metrics)}
    return run


EQUAL_3 = {"A": [0.35, 0.30, 0.30], "B": [0.30, 0.35, 0.30]}  # both gaps 5 points
EQUAL_4 = {  # every gap 4 points
    "A": [0.26, 0.22, 0.22, 0.22],
    "B": [0.22, 0.22, 0.26, 0.22],
    "C": [0.22, 0.26, 0.22, 0.22],
}


def test_equally_fair_dice_name_no_winner():
    """Two (and three) dice with the same true largest gap: the verdict names no fairest die,
    whatever die happens to show the smaller gap, and gives the margin with its interval."""
    rng = np.random.default_rng(2026)
    runs = {
        3: synthetic_run(3, EQUAL_3, 20_000, rng),
        4: synthetic_run(4, {k: EQUAL_4[k] for k in "AB"}, 20_000, rng),
    }
    d = dice_tables(runs)
    assert not d["table"]["clearly_fairest"].any()
    for v in d["verdicts"]:
        assert "no die is clearly fairer" in v, v
        assert "margin" in v and "95% CI" in v
        assert "is the fairest die" not in v


def test_equally_fair_dice_false_claims_stay_rare(monkeypatch):
    """Over many synthetic runs of equally fair dice (3 dice, 4 players, plus 2 dice, 3
    players, one Holm family) a fairest die is named in at most about 5% of the runs."""
    monkeypatch.setattr(gc, "collect", lambda *a: 0)  # statsmodels' multipletests calls it
    rng = np.random.default_rng(7)
    named = 0
    reps = 100
    for _ in range(reps):
        runs = {3: synthetic_run(3, EQUAL_3, 3000, rng), 4: synthetic_run(4, EQUAL_4, 3000, rng)}
        named += bool(dice_tables(runs)["table"]["clearly_fairest"].any())
    assert named / reps <= 0.06


def test_a_clearly_fairer_die_is_named():
    """One die with a 2-point gap against two with 10 points: it is named, with its margin
    over the runner-up, for both player counts."""
    rng = np.random.default_rng(11)
    dice3 = {"wide": [0.40, 0.30, 0.30], "fair": [0.34, 0.32, 0.34], "wider": [0.28, 0.38, 0.34]}
    runs = {
        3: synthetic_run(3, dice3, 20_000, rng),
        2: synthetic_run(2, {"wide": [0.55, 0.45], "fair": [0.49, 0.51]}, 20_000, rng),
    }
    d = dice_tables(runs)
    t = d["table"]
    assert t[t.clearly_fairest].set_index("players")["die"].to_dict() == {3: "fair", 2: "fair"}
    for v in d["verdicts"]:
        assert "fair is the fairest die" in v and "runner-up wide" in v, v
    # the rulebook's die (arm 0, 'wide') carries its test against the fairest
    book = t[t.rulebook & (t.players == 3)].iloc[0]
    assert book.gap_excess > 0 and book.gap_excess_adj_low > 0 and book.gap_excess_p_adjusted < 0.05


def test_rulebook_die_on_top_is_still_tested():
    """When the rulebook's die (arm 0) has the smallest gap, it is tested against the others
    too: inside the noise no winner is named."""
    rng = np.random.default_rng(5)
    dice = {"book": [0.34, 0.33, 0.28], "other": [0.33, 0.34, 0.28]}
    d = dice_tables({3: synthetic_run(3, dice, 5000, rng)})
    t = d["table"]
    assert t["gap_excess_p"].notna().sum() == 1  # one test: the runner-up against the fairest
    assert "no die is clearly fairer" in d["verdicts"][0]
