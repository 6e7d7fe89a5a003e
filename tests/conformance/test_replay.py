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


# ---------------------------------------------------------------------------------------
# The end line's final state: what the scores are computed from, after the last turn, so that
# an outside program can check the last turn and the scores without the engine.


def _digits(token: str) -> int:
    d = "".join(ch for ch in token if ch.isdigit())
    return int(d) if d else 0


def _sunken_city(final: dict, rules: dict) -> tuple[list[int], list[int]]:
    banked = [t["banked"] for t in final["treasures"]]
    if rules["scoring"] == "value":
        return [sum(b) for b in banked], [0] * len(banked)
    return [len(b) for b in banked], [sum(b) for b in banked]


def _sunken_treasure(final: dict, rules: dict) -> tuple[list[int], list[int]]:
    return [sum(s["banked"]) for s in final["seats"]], [sum(s["carried"]) for s in final["seats"]]


def _sumeria(final: dict, rules: dict) -> tuple[list[int], list[int]]:
    counts = [list(h.values()) for h in final["held"]]
    return [sum(n * (n + 1) // 2 for n in c) for c in counts], [max(c, default=0) for c in counts]


def _secrets_of_the_sea(final: dict, rules: dict) -> tuple[list[int], None]:
    # tile tokens carry their points (S3, M4, VC2, ...); an exchange tile (E) is worth 2 and
    # seagrass (g) nothing under the default tiles; each bonus tile is worth bonus_points
    score = [sum(2 if t.endswith("E") else _digits(t) for t in held) for held in final["held"]]
    for seat in final["bonus"].values():
        if seat is not None:
            score[seat] += rules["bonus_points"]
    return score, None


SCORES_FROM_FINAL = {
    "sunken-city": _sunken_city,
    "sunken-treasure": _sunken_treasure,
    "sumeria": _sumeria,
    "secrets-of-the-sea": _secrets_of_the_sea,
}


@pytest.mark.parametrize("game", sorted(SCORES_FROM_FINAL))
def test_the_end_line_carries_the_final_state(game):
    """The end line's `final` has the fields of a turn's state, and the scores (and tie-breaks)
    of the end line follow from it by the rulebook's scoring alone (default rules and tiles)."""
    spec = get_game(game)
    players = 3
    rules, seats = resolve(game, players, [], policy=lineup(game, players))
    for i in range(4):
        tr = spec.replay(rules, players, seats, SEED, i, checked=True)
        final = tr.end["final"]
        assert set(final) == set(tr.turns[-1]["state"])
        assert final != tr.turns[-1]["state"]
        score, tiebreak = SCORES_FROM_FINAL[game](final, tr.header["rules"])
        assert score == tr.end["scores"]
        if tiebreak is not None:
            assert tiebreak == tr.end["tiebreaks"]
        assert json.loads(tr.jsonl().splitlines()[-1])["final"] == final
