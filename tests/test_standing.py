"""The experience metrics' row columns (simcore/standing.py, docs/experience-metrics.md): the
online accumulator on hand-made standings whose values are known, the same accumulator against
a plain reference of the definitions on random standings and on a game longer than its ring,
and for every game the columns of a few hundred rows against a plain-Python recomputation from
the games' traces (the state before each turn and the final state)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simcore import get_game
from simcore.standing import (
    F_SIZE,
    M_SIZE,
    M_V,
    MAX_TURNS,
    PPM,
    RING,
    STANDING_COLUMNS,
    standing_row,
    standing_start,
    standing_turn,
)
from tests.conformance.cases import lineup, play_rows, resolve
from tests.conformance.test_replay import SCORES_FROM_FINAL


def _unique(values: list[int], best: int) -> int:
    hits = [s for s, v in enumerate(values) if v == best]
    return hits[0] if len(hits) == 1 else -1


def reference(seq: list[list[int]], players: int, winner: int) -> list[int]:
    """The six columns by their definitions, from the standings after each turn (seq[t - 1]
    after turn t), not online."""
    n = len(seq)
    if players < 2:
        return [0, -1, -1, -1, -1, n]
    leaders = [_unique(v, max(v)) for v in seq]
    lasts = [_unique(v, min(v)) for v in seq]
    changes, prev = 0, -1
    for lead in leaders:
        if lead >= 0:
            changes += prev >= 0 and lead != prev
            prev = lead
    half = (n + 1) // 2
    hl, hlast = (leaders[half - 1], lasts[half - 1]) if n else (-1, -1)
    if winner < 0 or n == 0:
        return [changes, -1, -1, hl, hlast, n]
    total, behind = 0.0, 0
    for v in seq:
        if v[winner] < max(v):
            total += float(max(v) - v[winner]) / float(max(v) - min(v))
            behind += 1
    drama = math.floor(total / behind * 1e6 + 0.5) if behind else 0
    t_w = max((t for t in range(1, n + 1) if leaders[t - 1] != winner), default=0)
    return [changes, drama, (2 * PPM * t_w + n) // (2 * n), hl, hlast, n]


def online(seq, players: int, winner: int, xm: int = 0, xf0: int = 0) -> list[int]:
    """The six columns from the compiled accumulator, its region at offsets xm and xf0."""
    x = np.full(xm + M_SIZE, 7, dtype=np.int64)  # garbage before the reset
    xf = np.full(xf0 + F_SIZE, 0.5)
    standing_start(x, xm, xf, xf0)
    for v in seq:
        x[xm + M_V : xm + M_V + players] = v
        standing_turn(x, xm, xf, xf0, players)
    rows = np.zeros((2, 9), dtype=np.int64)
    standing_row(x, xm, xf, xf0, players, winner, rows, 1, 2)
    return rows[1, 2:8].tolist()


# (standings after each turn, winner, expected: lead_changes, drama_ppm, decisive_ppm,
# half_leader, half_last, standing_turns)
KNOWN = {
    "winner leads throughout": ([[1, 0, 0], [2, 1, 0], [3, 1, 2]], 0, [0, 0, 0, 0, 2, 3]),
    # seat 1 leads after turns 1 and 2; seat 0 takes the lead on the last turn: drama 1 (the
    # winner was last and furthest behind each time), decisiveness 2/3
    "decided on the last turn": ([[0, 1], [0, 2], [3, 2]], 0, [1, 1_000_000, 666_667, 1, 0, 3]),
    # seat 0 is last at half-time (turn 2) and wins: half_last == winner
    "comeback from last place": (
        [[0, 2, 1], [1, 3, 2], [5, 3, 4], [6, 4, 5]],
        0,
        [1, 1_000_000, 500_000, 1, 0, 4],
    ),
    # ties never change the lead: leaders -, 0, -, 1, -, 0 are two changes; half-time (turn 3)
    # is a tie for the lead and for last place; seat 0 behind only after turn 4, by the whole
    # spread; it leads for good from turn 6 on: 5/6
    "ties": (
        [[1, 1], [2, 1], [2, 2], [2, 3], [3, 3], [5, 3]],
        0,
        [2, 1_000_000, 833_333, -1, -1, 6],
    ),
    # A, tie, A is no change
    "a tie is no change": ([[1, 0], [1, 1], [2, 1]], 0, [0, 0, 666_667, -1, -1, 3]),
    # behind by 2/3 and 1/3 of the spread: drama 1/2; 1/3 * 1e6 rounded
    "drama is a mean": ([[1, 3, 0], [2, 3, 0], [4, 3, 0]], 0, [1, 500_000, 666_667, 1, 2, 3]),
    "a third": ([[2, 3, 0], [4, 3, 0], [5, 3, 0]], 0, [1, 333_333, 333_333, 0, 2, 3]),
    "a shared win": ([[1, 0], [1, 1]], -1, [0, -1, -1, 0, 1, 2]),
    "one player": ([[3], [5]], 0, [0, -1, -1, -1, -1, 2]),
    "no turn": ([], 1, [0, -1, -1, -1, -1, 0]),
}


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_games(name):
    seq, winner, expected = KNOWN[name]
    players = len(seq[0]) if seq else 2
    assert reference(seq, players, winner) == expected
    assert online(seq, players, winner) == expected
    assert online(seq, players, winner, xm=5, xf0=3) == expected


def test_the_accumulator_agrees_with_the_definitions_on_random_standings():
    """Small standings (many ties), 2 to 4 seats, any winner: online == reference."""
    rng = np.random.default_rng(26)
    for _ in range(300):
        players = int(rng.integers(2, 5))
        turns = int(rng.integers(0, 30))
        seq = np.cumsum(rng.integers(0, 3, size=(turns, players)), axis=0).tolist()
        winner = int(rng.integers(-1, players))
        assert online(seq, players, winner) == reference(seq, players, winner)


def test_the_half_time_of_a_game_longer_than_the_ring():
    """The ring holds RING turns; the half-time turn of a game of nearly twice as many is still
    found (the leader alternates in runs of 7 turns, so a wrong slot shows)."""
    turns = 2 * RING - 3
    assert turns <= MAX_TURNS
    seq = [[1, 0] if (t // 7) % 2 else [0, 1] for t in range(1, turns + 1)]
    assert online(seq, 2, 1) == reference(seq, 2, 1)


# ------------------------------------------------------------------------------ games


def _standings(game: str, state: dict, rules: dict, end: dict | None) -> list[int]:
    """Every seat's standing from a trace's state by the game's documented standing (the
    scores from tests.conformance.test_replay, encoded as docs/experience-metrics.md says);
    end: the end line, given with the final state."""
    score, tiebreak = SCORES_FROM_FINAL[game](state, rules)
    if game == "sunken-city":
        return [s * 128 + t for s, t in zip(score, tiebreak)]
    if game == "sumeria":
        return [s * 64 + t for s, t in zip(score, tiebreak)]
    if game == "secrets-of-the-sea":
        return list(score)
    target = end is not None and end["end_reason"] == "target"
    won = [target and s == end["winner"] for s in range(len(score))]
    return [w * 2**52 + s * 2**26 + t for w, s, t in zip(won, score, tiebreak)]


# (game, players, variant, games): the default rules (the scores from the traces assume them)
TRACED = [
    ("sunken-city", 2, 60),
    ("sunken-city", 4, 60),
    ("sumeria", 3, 40),
    ("sumeria", 4, 40),
    ("secrets-of-the-sea", 2, 60),
    ("secrets-of-the-sea", 4, 60),
    ("sunken-treasure", 1, 20),
    ("sunken-treasure", 3, 100),
]


@pytest.mark.parametrize("game,players,games", TRACED)
def test_the_columns_match_a_recomputation_from_traces(game, players, games):
    """Game i's row (batch, no trace) against the standings read from game i's trace: the
    state before each turn is the standing after the turn before it, the final state the
    standing after the last turn. At the end the winner is the unique leader, and a shared win
    is a tie for the lead (the standing orders seats as the winner rule does)."""
    spec = get_game(game)
    rules, seats = resolve(game, players, [], policy=lineup(game, players))
    rows = play_rows(game, players, rules, seats, 26, 0, games, True, False)
    cols = [spec.columns.index(c) for c in STANDING_COLUMNS]
    for i in range(games):
        tr = spec.replay(rules, players, seats, 26, i, rotate=True, checked=False)
        assert tr.end["error"] == 0
        hdr = tr.header["rules"]
        seq = [_standings(game, t["state"], hdr, None) for t in tr.turns[1:]]
        seq.append(_standings(game, tr.end["final"], hdr, tr.end))
        winner = tr.end["winner"]
        assert rows[i, cols].tolist() == reference(seq, players, winner), f"game {i}"
        if players > 1 and (winner >= 0 or game != "sunken-treasure"):
            assert _unique(seq[-1], max(seq[-1])) == winner
