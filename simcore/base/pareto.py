"""The Pareto front of a set of scored trials (numpy only): the rules tuner's front
(simcore.studies.tune_rules) and its tables (analysis.tuning_tables)."""

from __future__ import annotations

from typing import Any

import numpy as np


def pareto_front(trials, sign) -> list[dict[str, Any]]:
    """The trials no other trial dominates (at least as good in every objective, better in
    one), in the order given. trials: dicts with "values"; sign: +1 or -1 per objective
    (minimised after the sign)."""
    vals = [sign * np.array(t["values"]) for t in trials]
    return [
        t
        for i, t in enumerate(trials)
        if not any(np.all(v <= vals[i]) and np.any(v < vals[i]) for v in vals)
    ]
