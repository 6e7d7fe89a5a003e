"""Every component reading of every game composed with every variant of its report, for every
player count (issue #35): each pair either resolves or is skipped with the rules' reason, and the
robustness grid leaves out exactly the skipped pairs (plans only: nothing is played)."""

from __future__ import annotations

import pytest

from simcore.base.errors import RulesError
from simcore.frame.registry import all_games, get_game
from simcore.studies.robustness import composing, robustness_plan

GAMES = sorted(all_games())


def _pairs(spec):
    for p in range(spec.min_players, spec.max_players + 1):
        for r in spec.readings():
            yield p, r


@pytest.mark.parametrize("game", GAMES)
def test_every_reading_with_every_report_variant_resolves_or_says_why(game):
    spec = get_game(game)
    for p, reading in _pairs(spec):
        kept, why = composing(spec, p, reading, spec.report_variants, None, None)
        assert set(kept) | set(why) == set(spec.report_variants) and not set(kept) & set(why)
        for v in spec.report_variants:
            parts = [reading] + ([] if v == "base" else [v])
            if v in kept:
                spec.resolve_rules(parts, None, None, p)  # resolves
            else:
                with pytest.raises(RulesError) as e:
                    spec.resolve_rules(parts, None, None, p)
                assert why[v] == " ".join(str(e.value).split()) != ""


@pytest.mark.parametrize("game", GAMES)
def test_the_grid_leaves_out_exactly_the_pairs_that_do_not_compose(game):
    spec = get_game(game)
    plan = robustness_plan(spec, None, 4, search=False)
    settings = {j.setting.key: j.setting for j in plan.jobs}
    expected = []
    for p, reading in _pairs(spec):
        _, why = composing(spec, p, reading, spec.report_variants, None, None)
        expected += [(f"{p}p/components/{reading}", v) for v in why]
        key = f"{p}p/components/{reading}"
        if key in settings:
            assert not set(why) & set(settings[key].variants)
    assert [(k.key, k.variant) for k in plan.skipped] == expected


def test_secrets_of_the_sea_has_the_pair_of_issue_35():
    spec = get_game("secrets-of-the-sea")
    kept, why = composing(spec, 3, "tiles-more-monsters", spec.report_variants, None, None)
    assert "unbeatable-monsters" in why and "unbeatable-monsters" not in kept
    assert kept[0] == "base"


def test_a_bad_base_rule_is_an_error_not_a_skip():
    spec = get_game("sunken-city")
    with pytest.raises(RulesError, match="unknown rules key"):
        composing(spec, 3, "", ("base", "short"), {"colour": "1"}, None)
