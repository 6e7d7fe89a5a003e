"""Sumeria: determinism (threads, chunks), replay == simulate, golden traces and statistical
checks at a fixed seed.

Golden traces: tests/golden/sumeria(...).jsonl, one game each, regenerated with
`.venv/bin/python -m tests.sumeria.test_sumeria_misc` (review the diff after an intended change).
"""

from __future__ import annotations

from pathlib import Path

import numba
import pytest

from simcore import get_game, simulate

GOLDEN = Path(__file__).parent.parent / "golden"
GOLDEN_CASES = [
    # (players, seed, game index, variants, overrides, policy)
    (3, 4, 1, [], {}, "random"),
    (4, 9, 2, ["cross-map"], {}, "balanced,shifter,chaser,random"),
]


def golden_name(players, seed, index, variants, overrides, policy) -> str:
    parts = [f"players={players}", f"seed={seed}", f"game={index}"]
    parts.append("policy=" + policy.replace(",", "_"))
    if variants:
        parts.append("variant=" + "+".join(variants))
    parts += [f"{k}={v.replace(',', '_')}" for k, v in sorted(overrides.items())]
    return "sumeria(" + ",".join(parts) + ").jsonl"


def golden_lines(players, seed, index, variants, overrides, policy) -> list[str]:
    spec = get_game("sumeria")
    rules = spec.resolve_rules(variants, overrides, None, players)
    seats = spec.parse_policies(policy, players)
    return spec.replay(rules, players, seats, seed, index, version="golden").jsonl().splitlines()


def regenerate() -> None:
    """Rewrite the golden trace files of GOLDEN_CASES."""
    for case in GOLDEN_CASES:
        path = GOLDEN / golden_name(*case)
        path.write_text("\n".join(golden_lines(*case)) + "\n")
        print(f"wrote {path.name}")


@pytest.mark.parametrize("case", GOLDEN_CASES, ids=lambda c: golden_name(*c))
def test_golden_trace(case):
    expected = (GOLDEN / golden_name(*case)).read_text().splitlines()
    got = golden_lines(*case)
    assert len(got) == len(expected)
    for i, (a, b) in enumerate(zip(got, expected)):
        assert a == b, f"line {i + 1} differs (regenerate: python -m {__name__})"


@pytest.mark.parametrize("players", [3, 4])
def test_threads_and_chunks_give_identical_rows(players):
    kw = dict(
        seed=11, keep_rows=True, policies="balanced,random,shifter" + ",chaser" * (players - 3)
    )
    base = simulate("sumeria", players, 600, threads=1, **kw)
    others = [
        simulate("sumeria", players, 600, threads=numba.config.NUMBA_NUM_THREADS, **kw),
        simulate("sumeria", players, 600, threads=1, chunk_size=77, **kw),
    ]
    for o in others:
        assert base.rows.equals(o.rows)
        assert base.summary.equals(o.summary)
    kw["seed"] = 12
    assert not base.rows.equals(simulate("sumeria", players, 600, **kw).rows)


@pytest.mark.parametrize("rotate", [False, True])
def test_replay_is_the_same_game_as_simulate(rotate):
    spec = get_game("sumeria")
    rules = spec.resolve_rules(["ring-map"], {}, None, 3)
    seats = spec.parse_policies("balanced,random,chaser", 3)
    res = simulate(
        spec,
        3,
        30,
        variants=["ring-map"],
        policies=seats,
        seed=77,
        rotate_seats=rotate,
        keep_rows=True,
    )
    for i in (0, 13, 29):
        tr = spec.replay(rules, 3, seats, 77, i, rotate=rotate)
        row = res.rows.iloc[i]
        assert tr.end["winner"] == row.winner
        assert tr.end["turns"] == row.turns
        assert tr.end["scores"] == [row[f"score_{s}"] for s in range(3)]
        assert tr.end["tiebreaks"] == [row[f"tiebreak_{s}"] for s in range(3)]
        assert "Game over" in tr.text()


def _rate(policies: str, games: int = 600, players: int = 3) -> float:
    """Win share (shared wins split) of the first policy of the list, seats rotated."""
    res = simulate(
        "sumeria", players, games, policies=policies, seed=5, rotate_seats=True, keep_rows=True
    )
    df = res.rows
    mask = df.win_mask.to_numpy()
    n = sum((mask >> k) & 1 for k in range(players))
    wins = 0.0
    for s in range(players):
        mine = (df[f"policy_{s}"] == 0).to_numpy()
        wins += float((((mask >> s) & 1)[mine] / n[mine]).sum())
    return wins / games


@pytest.mark.parametrize("policy", ["balanced", "chaser", "shifter"])
def test_presets_beat_random(policy):
    # fair share 1/3; at 600 games the 95% interval half-width is about 0.04
    assert _rate(f"{policy},random,random") > 0.45


if __name__ == "__main__":
    regenerate()
