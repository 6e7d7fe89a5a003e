"""Secrets of the Sea: determinism (threads, chunks), replay == simulate, golden traces and
statistical checks at a fixed seed.

Golden traces: tests/golden/secrets-of-the-sea(...).jsonl, regenerated with
`.venv/bin/python -m tests.secrets_of_the_sea.test_secrets_misc` (review the diff after an
intended rules change).
"""

from __future__ import annotations

import json
from pathlib import Path

import numba
import pytest

from simcore import get_game, simulate

GAME = "secrets-of-the-sea"
GOLDEN = Path(__file__).parent.parent / "golden"
CASES = [
    # (players, seed, game index, variants, overrides, policy)
    (3, 4, 2, [], {}, "random,ev,balanced"),
    (3, 9, 5, ["exact-wreck"], {}, "stop-at-value,stop-at-depth,random"),
]


def golden_name(players, seed, index, variants, overrides, policy) -> str:
    pol = policy.replace(",", "_")
    parts = [f"players={players}", f"seed={seed}", f"game={index}", f"policy={pol}"]
    if variants:
        parts.append("variant=" + "+".join(variants))
    parts += [f"{k}={v.replace(',', '_')}" for k, v in sorted(overrides.items())]
    return GAME + "(" + ",".join(parts) + ").jsonl"


def trace_lines(players, seed, index, variants, overrides, policy) -> list[str]:
    spec = get_game(GAME)
    rules = spec.resolve_rules(variants, overrides, None, players)
    seats = spec.parse_policies(policy, players)
    return spec.replay(rules, players, seats, seed, index, version="golden").jsonl().splitlines()


def regenerate() -> None:
    for case in CASES:
        path = GOLDEN / golden_name(*case)
        path.write_text("\n".join(trace_lines(*case)) + "\n")
        print(f"wrote {path.name}")


@pytest.mark.parametrize("case", CASES, ids=lambda c: golden_name(*c))
def test_golden_trace(case):
    expected = (GOLDEN / golden_name(*case)).read_text().splitlines()
    got = trace_lines(*case)
    assert len(got) == len(expected)
    for i, (a, b) in enumerate(zip(got, expected)):
        assert a == b, f"line {i + 1} differs (regenerate: python -m {__name__})"


@pytest.mark.parametrize("players", [2, 4])
def test_threads_and_chunks_give_identical_rows(players):
    kw = dict(seed=11, keep_rows=True, policies="balanced", rotate_seats=True)
    base = simulate(GAME, players, 2000, threads=1, **kw)
    for other in (
        simulate(GAME, players, 2000, threads=numba.config.NUMBA_NUM_THREADS, **kw),
        simulate(GAME, players, 2000, threads=1, chunk_size=333, **kw),
    ):
        assert base.rows.equals(other.rows)
        assert base.summary.equals(other.summary)
    assert not base.rows.equals(simulate(GAME, players, 2000, **{**kw, "seed": 12}).rows)


@pytest.mark.parametrize("rotate", [False, True])
def test_replay_is_the_same_game_as_simulate(rotate):
    spec = get_game(GAME)
    rules = spec.resolve_rules(["must-dive"], {}, None, 3)
    seats = spec.parse_policies("ev,random,balanced", 3)
    res = simulate(
        spec,
        3,
        30,
        variants=["must-dive"],
        policies=seats,
        seed=77,
        rotate_seats=rotate,
        keep_rows=True,
    )
    for i in (0, 7, 29):
        tr = spec.replay(rules, 3, seats, 77, i, rotate=rotate)
        row = res.rows.iloc[i]
        assert tr.end["winner"] == row.winner
        assert tr.end["turns"] == row.turns == len(tr.turns)
        assert tr.end["scores"] == [row[f"score_{s}"] for s in range(3)]
        json.loads(tr.jsonl().splitlines()[-1])
        assert "Game over" in tr.text()


def _rates(policy: str, games: int = 3000) -> dict[str, tuple[float, float]]:
    res = simulate(GAME, 3, games, policies=policy, rotate_seats=True, seed=5)
    s = res.summary
    return {
        p: (s.policy_wins[k] / s.policy_games[k], s.policy_score[k] / s.policy_games[k])
        for k, p in enumerate(res.policies)
    }


@pytest.mark.parametrize("strong", ["ev", "balanced", "stop-at-value", "stop-at-depth"])
def test_each_player_beats_random(strong):
    """Seats rotated, 3000 games at seed 5: each heuristic wins more than a random player and
    more than a third of its games (random players win under 5%)."""
    rates = _rates(f"{strong},random,random")
    assert rates[strong][0] > 0.5
    assert rates["random"][0] < 0.05


def test_ev_beats_balanced_and_the_thresholds():
    rates = _rates("ev,balanced,stop-at-value")
    assert rates["ev"][0] > rates["balanced"][0]
    assert rates["ev"][0] > rates["stop-at-value"][0]


if __name__ == "__main__":
    regenerate()
