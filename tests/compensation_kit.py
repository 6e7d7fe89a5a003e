"""What the per-game seat compensation tests share (issue #38; tests/<game>/test_*compensation
.py): the same games played with and without a field, a rows column, the default's packed
rules, and the one-sentence refusals."""

from __future__ import annotations

import numpy as np
import pytest

from simcore import get_game
from simcore.base.errors import RulesError
from tests.conformance.cases import play_rows, resolve

SEED = 38


def rows_of(game, players, overrides, policy=None, games=3000):
    """(spec, rows) of `games` games of seed SEED, seats rotated, with these rules overrides
    (the same games with and without a field: the field is all that differs)."""
    spec = get_game(game)
    rules, seats = resolve(game, players, [], overrides, policy=policy or spec.default_policy)
    return spec, play_rows(game, players, rules, seats, SEED, 0, games, True, False)


def col(spec, rows, name):
    return rows[:, spec.columns.index(name)]


def win_rate_rises(spec, base, more, seat: int) -> None:
    """The seat's win rate over the games `more` is up on the same games `base` by more than
    3 standard errors."""
    before = (col(spec, base, "winner") == seat).mean()
    after = (col(spec, more, "winner") == seat).mean()
    se = np.sqrt(before * (1 - before) / len(base))
    assert after - before > 3 * se, (before, after, se)


def default_packs_the_same(game: str, field: str, pack) -> None:
    """The field at its default is the rulebook: not in the resolved rules, and the kernel sees
    the same rules array as with the field set to 0 for every seat (which is shown)."""
    spec = get_game(game)
    rules = spec.resolve_rules([], {}, None, 3)
    assert getattr(rules, field) == () and field not in spec.resolved(rules, 3)
    zeros = spec.resolve_rules([], {field: "0,0,0"}, None, 3)
    assert spec.resolved(zeros, 3)[field] == [0, 0, 0]  # set, so shown
    assert np.array_equal(pack(rules, 3), pack(zeros, 3))


def refused(game: str, overrides: dict, why: str, players: int = 3) -> None:
    """An impossible compensation is one RulesError sentence matching `why`."""
    with pytest.raises(RulesError, match=why):
        get_game(game).resolve_rules([], overrides, None, players)


def header_shows(game: str, field: str, amounts: str = "0,0,1") -> None:
    """The referees' view: a checked replay's trace header shows the field when set, and a
    rulebook game's header does not name it."""
    spec = get_game(game)
    rules, seats = resolve(game, 3, [], {field: amounts}, "balanced")
    tr = spec.replay(rules, 3, seats, SEED, 0, rotate=False, checked=True)
    assert tr.header["rules"][field] == [int(a) for a in amounts.split(",")]
    plain, seats = resolve(game, 3, [], {}, "balanced")
    assert field not in spec.replay(plain, 3, seats, SEED, 0, rotate=False).header["rules"]
