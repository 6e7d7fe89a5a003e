"""The seam between the studies and the renderers (issue #48): every protocol of
simcore.base.results names only what the study's own result type has, so that a renderer
annotated with it reads fields that exist (the protocols are structural: nothing checks them
at run time but this)."""

from __future__ import annotations

import dataclasses
from typing import Protocol

import pytest

from simcore.base import results as R
from simcore.frame.registry import GameSpec
from simcore.frame.replay import GameTrace
from simcore.run.chunks import Summary
from simcore.run.runner import SimResult
from simcore.studies.compare import Arm
from simcore.studies.outcomes import Outcomes
from simcore.studies.robustness import RatingMatches, RobustnessRun, Setting, Skipped
from simcore.studies.tune_rules import Constraint, Objective, Param

PAIRS = [
    (R.GameInfo, GameSpec),
    (R.RunSummary, Summary),
    (R.RunResult, SimResult),
    (R.ArmInfo, Arm),
    (R.GameOutcomes, Outcomes),
    (R.GridSetting, Setting),
    (R.SkippedPair, Skipped),
    (R.RobustnessResult, RobustnessRun),
    (R.RatedMatches, RatingMatches),
    (R.TuningObjective, Objective),
    (R.TuningConstraint, Constraint),
    (R.TuningParam, Param),
    (R.Trace, GameTrace),
]


def members(protocol: type) -> set[str]:
    """The names a protocol declares: its annotations, properties and methods (its own and
    those of the protocols it extends)."""
    out: set[str] = set()
    for k in protocol.__mro__:
        if k in (Protocol, object) or not getattr(k, "_is_protocol", False):
            continue
        out |= set(k.__dict__.get("__annotations__", {}))
        out |= {n for n in k.__dict__ if not n.startswith("_")}
    return out


def has(cls: type) -> set[str]:
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    return fields | set(dir(cls))


@pytest.mark.parametrize("protocol, cls", PAIRS, ids=[p.__name__ for p, _ in PAIRS])
def test_a_study_result_has_what_its_protocol_names(protocol, cls):
    assert members(protocol), protocol
    assert sorted(members(protocol) - has(cls)) == []


def test_every_protocol_is_checked_against_a_study():
    protocols = {
        v
        for v in vars(R).values()
        if isinstance(v, type) and getattr(v, "_is_protocol", False) and v.__module__ == R.__name__
    }
    assert protocols == {p for p, _ in PAIRS}
