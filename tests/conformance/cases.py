"""What the conformance suite runs for each registered game, and the checks that hold for the
result rows of every game."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simcore import all_games, get_game
from simcore.base.rulesbase import RulesError

GAMES = sorted(all_games())


def player_counts(name: str) -> range:
    spec = get_game(name)
    return range(spec.min_players, spec.max_players + 1)


def game_players() -> list[tuple[str, int]]:
    """(game, players) for every registered game and each of its player counts."""
    return [(g, p) for g in GAMES for p in player_counts(g)]


def game_players_variants() -> list[tuple[str, int, str]]:
    """(game, players, variant) for every named variant of every game at each player count it
    allows (a variant that a player count rejects, e.g. a map for 4 only, is left out)."""
    out = []
    for g, p in game_players():
        spec = get_game(g)
        for v in spec.variants.names():
            try:
                spec.resolve_rules([v], {}, None, p)
            except RulesError:
                continue
            out.append((g, p, v))
    return out


def lineup(name: str, players: int) -> str:
    """A policy list of `players` different policies where the game has enough (cycled
    otherwise), starting at a different policy for each player count."""
    names = get_game(name).presets
    return ",".join(names[(players + k) % len(names)] for k in range(players))


def random_player(name: str) -> str:
    """The game's uniformly random player, or its default player in a game that declares no
    `random` (a game without decisions, whose one player makes the only move there is)."""
    spec = get_game(name)
    return "random" if "random" in spec.policies else spec.default_policy


def search_rows(game: str, players: int, policies: str, games: int, **kw) -> pd.DataFrame:
    """The rows of `games` games of a lineup with search seats, seats rotated (simulate's
    keyword arguments in kw: seed, threads, checked)."""
    from simcore import simulate

    kw = {"seed": 5, "threads": 1, "checked": False} | kw
    return simulate(
        get_game(game), players, games, policies=policies, rotate_seats=True, keep_rows=True, **kw
    ).rows


def first_wins(game: str, players: int, policies: str, games: int = 300, seed: int = 1) -> int:
    """The outright wins of the policy list's first entry over `games` games, seats rotated
    (a search player against its base, on the same games)."""
    from simcore import simulate

    res = simulate(get_game(game), players, games, policies=policies, seed=seed, rotate_seats=True)
    return int(res.summary.policy_wins[0])


def resolve(name: str, players: int, variants=(), overrides=None, policy: str | None = None):
    """(rules, seats) as simulate resolves them: the seats carry the weights in effect under
    the rules (GameSpec.resolve_seats)."""
    spec = get_game(name)
    rules = spec.resolve_rules(list(variants), overrides or {}, None, players)
    seats = spec.resolve_seats(spec.parse_policies(policy, players), rules)
    return rules, seats


def play_rows(name, players, rules, seats, seed, first, n, rotate, checked) -> np.ndarray:
    """Games first .. first + n - 1 straight from the game's batch kernel: raw rows (every
    column of spec.columns, unused seats included)."""
    spec = get_game(name)
    ids, w = spec.policy_arrays(seats)
    rows = np.zeros((n, len(spec.columns)), dtype=np.int64)
    r = spec.pack(rules, players)
    spec.play_batch(r, ids, w, np.uint64(seed), np.int64(first), rotate, checked, rows)
    return rows


def check_rows(name: str, players: int, rows: np.ndarray, first: int, n_policies: int) -> None:
    """The row layout every game shares: no error, the right game index and player count, a
    winner that agrees with the win mask, a known end reason, policies within the lineup, and
    in the columns of seats that are not playing policy -1 and zeros."""
    spec = get_game(name)
    col = {c: rows[:, i] for i, c in enumerate(spec.columns)}
    bad = np.flatnonzero(col["error"] != 0)
    assert bad.size == 0, f"errors {col['error'][bad[:5]]} in games {col['game'][bad[:5]]}"
    assert (col["game"] == np.arange(first, first + len(rows))).all()
    assert (col["players"] == players).all()
    winner, mask = col["winner"], col["win_mask"]
    assert ((winner >= -1) & (winner < players)).all()
    assert (mask >= 0).all() and (mask < 1 << players).all()
    solo = winner >= 0
    assert (mask[solo] == 1 << winner[solo]).all(), "a sole winner's win mask is its bit"
    ones = sum((mask >> s) & 1 for s in range(players))
    assert (ones[~solo] != 1).all(), "winner -1 with a single bit in the win mask"
    reasons = col["end_reason"]
    assert ((reasons >= 0) & (reasons < len(spec.end_reasons))).all()
    if "error" in spec.end_reasons:
        assert (reasons != spec.end_reasons.index("error")).all()
    assert (col["turns"] > 0).all()
    for s in range(players):
        assert ((col[f"policy_{s}"] >= 0) & (col[f"policy_{s}"] < n_policies)).all()
    for c in spec.columns:
        if unused_seat(c, players):
            empty = -1 if c.startswith("policy_") else 0
            assert (col[c] == empty).all(), f"column {c} of a seat that does not play"


def checked_frame(
    game, players, variants=(), overrides=None, policy="random", games=100, seed=2024
):
    """`games` games in checked mode, seats rotated, that pass check_rows: (a DataFrame of the
    columns of the seats that play, the rules), for a game's own checks in tests/<game>/."""
    rules, seats = resolve(game, players, variants, overrides, policy)
    rows = play_rows(game, players, rules, seats, seed, 0, games, True, True)
    check_rows(game, players, rows, 0, len(seats))
    frame = pd.DataFrame(rows, columns=get_game(game).columns)
    return frame[[c for c in frame.columns if not unused_seat(c, players)]], rules


def unused_seat(column: str, players: int) -> bool:
    """Whether the column belongs to a seat (name_<seat>) that does not play."""
    seat = column.rsplit("_", 1)[-1]
    return seat.isdigit() and int(seat) >= players
