"""Replay = simulate, for every registered game: spec.replay(...) of game i (with its trace
on, in checked mode) is game i of a batch played without trace: the end line of the trace
carries the batch row's values, and the trace renders as JSON lines and as text."""

from __future__ import annotations

import json

import pytest

from simcore import get_game
from tests.conformance.cases import game_players, game_players_variants, lineup, play_rows, resolve

SEED = 77
BATCH = 24
PICKED = (0, 11, BATCH - 1)


def variant_for(game: str, players: int) -> str:
    """One variant per player count, a different one for each count where the game has them."""
    allowed = [v for g, p, v in game_players_variants() if (g, p) == (game, players)]
    return allowed[players % len(allowed)]


def end_matches_row(spec, end: dict, row: dict[str, int], players: int) -> None:
    """Every value of the trace's end line equals the row's: the end reason by name, scores and
    tie-breaks seat by seat, the other keys column by column."""
    assert end["end_reason"] == spec.end_reasons[row["end_reason"]]
    assert end["scores"] == [row[f"score_{s}"] for s in range(players)]
    if "tiebreaks" in end:
        assert end["tiebreaks"] == [row[f"tiebreak_{s}"] for s in range(players)]
    shared = [k for k in end if k in row and k != "end_reason"]
    assert {"winner", "turns", "rounds"} <= set(shared)
    assert {k: end[k] for k in shared} == {k: row[k] for k in shared}


@pytest.mark.parametrize("rotate", [False, True], ids=["fixed", "rotated"])
@pytest.mark.parametrize("game,players", game_players())
def test_replay_is_game_i_of_the_batch(game, players, rotate):
    spec = get_game(game)
    variant = variant_for(game, players)
    rules, seats = resolve(game, players, [variant], policy=lineup(game, players))
    rows = play_rows(game, players, rules, seats, SEED, 0, BATCH, rotate, False)
    for i in PICKED:
        tr = spec.replay(rules, players, seats, SEED, i, rotate=rotate, checked=True)
        row = {c: int(v) for c, v in zip(spec.columns, rows[i])}
        end_matches_row(spec, tr.end, row, players)
        lines = tr.jsonl().splitlines()
        head, last = json.loads(lines[0]), json.loads(lines[-1])
        assert (head["game"], head["players"], head["seed"], head["index"]) == (
            game,
            players,
            SEED,
            i,
        )
        assert last == tr.end
        assert tr.text().strip()
