"""The experience metrics' row columns (simcore/frame/standing.py, docs/experience-metrics.md): the
online accumulator on hand-made standings whose values are known, the same accumulator against
a plain reference of the definitions on random standings and on a game longer than its ring,
and for every game the columns of a few hundred rows against a plain-Python recomputation from
the games' traces (the state before each turn and the final state)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simcore import get_game
from simcore.frame.standing import (
    F_SIZE,
    LOG_CAP,
    M_SIZE,
    MAX_TURNS,
    PPM,
    RUN_CAP,
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
    """The seven columns by their definitions, from the standings after each turn (seq[t - 1]
    after turn t), not online."""
    n = len(seq)
    if players < 2:
        return [0, -1, -1, -1, -1, n, -1]
    leaders = [_unique(v, max(v)) for v in seq]
    # the turns played before anyone led alone, as a share of the game (-1 with no turn)
    opening = next((t - 1 for t in range(1, n + 1) if leaders[t - 1] >= 0), n)
    opening_ppm = (2 * PPM * opening + n) // (2 * n) if n else -1
    lasts = [_unique(v, min(v)) for v in seq]
    changes, prev = 0, -1
    for lead in leaders:
        if lead >= 0:
            changes += prev >= 0 and lead != prev
            prev = lead
    half = (n + 1) // 2
    hl, hlast = (leaders[half - 1], lasts[half - 1]) if n else (-1, -1)
    if winner < 0 or n == 0:
        return [changes, -1, -1, hl, hlast, n, opening_ppm]
    # runs of turns with the same standings add their length times the ratio, in turn order
    total, behind = 0.0, 0
    for start, v in enumerate(seq):
        if v[winner] < max(v) and (start == 0 or seq[start - 1] != v):
            length = next((k for k in range(start, n) if seq[k] != v), n) - start
            total += float(length) * (float(max(v) - v[winner]) / float(max(v) - min(v)))
            behind += length
    drama = math.floor(total / behind * 1e6 + 0.5) if behind else 0
    t_w = max((t for t in range(1, n + 1) if leaders[t - 1] != winner), default=0)
    return [changes, drama, (2 * PPM * t_w + n) // (2 * n), hl, hlast, n, opening_ppm]


def online(seq, players: int, winner: int, xm: int = 0, xf0: int = 0) -> list[int]:
    """The seven columns from the compiled accumulator, its region at offsets xm and xf0, fed
    as the turn loop feeds it (the standings after each turn)."""
    x = np.full(xm + M_SIZE, 7, dtype=np.int64)  # garbage before the reset
    xf = np.full(xf0 + F_SIZE, 0.5)
    standing_start(x, xm)
    for v in seq:
        standing_turn(x, xm, xf, xf0, players, np.array(v, dtype=np.int64))
    rows = np.zeros((2, 10), dtype=np.int64)
    standing_row(x, xm, xf, xf0, players, winner, rows, 1, 2)
    return rows[1, 2:9].tolist()


# (standings after each turn, winner, expected: lead_changes, drama_ppm, decisive_ppm,
# half_leader, half_last, standing_turns, opening_ppm)
KNOWN = {
    "winner leads throughout": ([[1, 0, 0], [2, 1, 0], [3, 1, 2]], 0, [0, 0, 0, 0, 2, 3, 0]),
    # seat 1 leads after turns 1 and 2; seat 0 takes the lead on the last turn: drama 1 (the
    # winner was last and furthest behind each time), decisiveness 2/3
    "decided on the last turn": ([[0, 1], [0, 2], [3, 2]], 0, [1, 1_000_000, 666_667, 1, 0, 3, 0]),
    # seat 0 is last at half-time (turn 2) and wins: half_last == winner
    "comeback from last place": (
        [[0, 2, 1], [1, 3, 2], [5, 3, 4], [6, 4, 5]],
        0,
        [1, 1_000_000, 500_000, 1, 0, 4, 0],
    ),
    # ties never change the lead: leaders -, 0, -, 1, -, 0 are two changes; half-time (turn 3)
    # is a tie for the lead and for last place; seat 0 behind only after turn 4, by the whole
    # spread; it leads for good from turn 6 on: 5/6; nobody leads alone after turn 1: 1/6
    "ties": (
        [[1, 1], [2, 1], [2, 2], [2, 3], [3, 3], [5, 3]],
        0,
        [2, 1_000_000, 833_333, -1, -1, 6, 166_667],
    ),
    # nobody leads alone in the first two of four turns: opening 2/4; the winner never
    # trails and leads alone only after turn 3 (turn 4 is a tie): decided on the last turn
    "a late first lead": (
        [[0, 0, 0], [0, 0, 0], [1, 0, 0], [1, 1, 0]],
        0,
        [0, 0, 1_000_000, -1, -1, 4, 500_000],
    ),
    # nobody ever leads alone: the whole game is the opening
    "nobody leads alone": ([[0, 0], [1, 1], [1, 1]], -1, [0, -1, -1, -1, -1, 3, 1_000_000]),
    # A, tie, A is no change
    "a tie is no change": ([[1, 0], [1, 1], [2, 1]], 0, [0, 0, 666_667, -1, -1, 3, 0]),
    # behind by 2/3 and 1/3 of the spread: drama 1/2; 1/3 * 1e6 rounded
    "drama is a mean": ([[1, 3, 0], [2, 3, 0], [4, 3, 0]], 0, [1, 500_000, 666_667, 1, 2, 3, 0]),
    "a third": ([[2, 3, 0], [4, 3, 0], [5, 3, 0]], 0, [1, 333_333, 333_333, 0, 2, 3, 0]),
    "a shared win": ([[1, 0], [1, 1]], -1, [0, -1, -1, 0, 1, 2, 0]),
    "one player": ([[3], [5]], 0, [0, -1, -1, -1, -1, 2, -1]),
    "no turn": ([], 1, [0, -1, -1, -1, -1, 0, -1]),
}


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_games(name):
    seq, winner, expected = KNOWN[name]
    players = len(seq[0]) if seq else 2
    assert reference(seq, players, winner) == expected
    assert online(seq, players, winner) == expected
    assert online(seq, players, winner, xm=5, xf0=3) == expected


def test_the_accumulator_agrees_with_the_definitions_on_random_standings():
    """Small standings (many ties; about half the turns change nothing), 2 to 4 seats, any
    winner: online == reference."""
    rng = np.random.default_rng(26)
    for _ in range(300):
        players = int(rng.integers(2, 5))
        turns = int(rng.integers(0, 30))
        gains = rng.integers(0, 3, size=(turns, players)) * (rng.random((turns, 1)) < 0.5)
        seq = np.cumsum(gains, axis=0).tolist()
        winner = int(rng.integers(-1, players))
        assert online(seq, players, winner) == reference(seq, players, winner)


def test_games_longer_than_the_log():
    """A game of more than LOG_CAP runs folds its log into the sums and the ring (and the
    rest at its end): the same columns as the definitions, with exactly LOG_CAP runs (read
    from the log), one more, and several folds with runs left over."""
    rng = np.random.default_rng(126)
    for runs in (LOG_CAP - 1, LOG_CAP, LOG_CAP + 1, 2 * LOG_CAP, 3 * LOG_CAP + 17):
        for players in (2, 3, 4):
            # every turn a new run: a seat gains 1 to 3 (many lead changes and ties)
            gains = np.zeros((runs, players), dtype=np.int64)
            gains[np.arange(runs), rng.integers(0, players, runs)] = rng.integers(1, 4, runs)
            seq = np.cumsum(gains, axis=0).tolist()
            for winner in (-1, 0, players - 1):
                assert online(seq, players, winner) == reference(seq, players, winner)
    # runs of several turns: a fold falls inside a game whose turns repeat standings
    seq = [[t // 3, (t // 3) % 5] for t in range(3 * LOG_CAP + 40)]
    assert online(seq, 2, 0) == reference(seq, 2, 0)


def test_the_half_time_of_a_game_longer_than_the_ring():
    """The ring holds RUN_CAP runs; the half-time run of a game of MAX_TURNS turns, every turn
    a run of its own, is still found (the leader alternates in stretches of 7 turns, so a
    wrong run shows)."""
    turns = MAX_TURNS
    assert turns // 2 + 1 == RUN_CAP
    seq = [[t, t + 1] if (t // 7) % 2 else [t + 1, t] for t in range(1, turns + 1)]
    assert online(seq, 2, 1) == reference(seq, 2, 1)
    assert online(seq[:-1], 2, 0) == reference(seq[:-1], 2, 0)


def test_a_longer_game_finds_its_half_time_while_the_ring_holds_it():
    """Beyond MAX_TURNS the half-time run is found while fewer than RUN_CAP runs began after
    it (standings that change every tenth turn), and is -2 (out of reach) once more did."""
    turns = 3 * RUN_CAP
    seq = [[t // 10, 0] if (t // 70) % 2 else [0, t // 10] for t in range(1, turns + 1)]
    assert online(seq, 2, 0) == reference(seq, 2, 0)
    every = [[t, 0] if (t // 7) % 2 else [0, t] for t in range(1, turns + 1)]
    expected = reference(every, 2, 0)
    expected[3:5] = [-2, -2]
    assert online(every, 2, 0) == expected


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
    return [w * 2**52 + s for w, s in zip(won, score)]


# (game, players, games, policy list or None for tests.conformance.cases.lineup): the default
# rules (the scores from the traces assume them); a `search` seat, whose simulations must not
# be tracked (its turns in the real game are)
TRACED = [
    ("sunken-city", 2, 60, None),
    ("sunken-city", 4, 60, None),
    ("sumeria", 3, 40, None),
    ("sumeria", 4, 40, None),
    ("secrets-of-the-sea", 2, 60, None),
    ("secrets-of-the-sea", 4, 60, None),
    ("sunken-treasure", 1, 20, None),
    ("sunken-treasure", 3, 100, None),
    ("sunken-treasure", 2, 10, "search:budget=8,balanced"),
]


@pytest.mark.parametrize("game,players,games,policy", TRACED)
def test_the_columns_match_a_recomputation_from_traces(game, players, games, policy):
    """Game i's row (batch, no trace) against the standings read from game i's trace: the
    state before each turn is the standing after the turn before it, the final state the
    standing after the last turn. At the end the winner is the unique leader, and a shared win
    is a tie for the lead (the standing orders seats as the winner rule does)."""
    spec = get_game(game)
    rules, seats = resolve(game, players, [], policy=policy or lineup(game, players))
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
