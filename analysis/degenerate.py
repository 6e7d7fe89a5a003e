"""Degenerate play (docs/robustness.md, "Degenerate play"): the measures of a tally of outcomes
(simcore.studies.outcomes.Outcomes) and the thresholds past which a setting of `balance
robustness` or a rung of `balance ladder` is flagged and left out of the verdicts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simcore.base.results import GameOutcomes


@dataclass(frozen=True)
class Thresholds:
    """When a setting is degenerate (each a share of its games; any one suffices)."""

    repeated: float = 0.25  # the most common outcome (scores, length) makes up this share or more
    limit: float = 0.5  # ended by a safety cap (round or turn limit) this share or more
    no_score: float = 0.5  # no seat scored in this share or more


def degenerate(outcomes: GameOutcomes, t: Thresholds) -> dict[str, Any]:
    """The degenerate-play measures of one arm's games (simcore.studies.outcomes.Outcomes): the
    share of distinct games (distinct final scores and length), the share of the most common
    one, the shares ended by a safety cap and with no score, and the reasons it is flagged."""
    n = outcomes.games
    mode = max(outcomes.counts.values()) if n else 0
    # the most common outcome, ties to the smallest (the same for every chunking and merge order)
    top = min(outcomes.counts, key=lambda k: (-outcomes.counts[k], k)) if n else ()
    out = {
        "games": n,
        "distinct_share": len(outcomes.counts) / n if n else float("nan"),
        "most_common_share": mode / n if n else float("nan"),
        "most_common": {"scores": list(top[:-1]), "rounds": top[-1]} if n else None,
        "limit_share": outcomes.limit / n if n else float("nan"),
        "no_score_share": outcomes.no_score / n if n else float("nan"),
    }
    reasons = []
    if n and out["most_common_share"] >= t.repeated:
        sc = "/".join(map(str, top[:-1]))
        reasons.append(
            f"{out['most_common_share']:.1%} of the games are one and the same outcome (scores "
            f"{sc}, {top[-1]} rounds; {out['distinct_share']:.2%} distinct games)"
        )
    if n and out["limit_share"] >= t.limit:
        reasons.append(f"{out['limit_share']:.1%} of the games end by the round or turn limit")
    if n and out["no_score_share"] >= t.no_score:
        reasons.append(f"no seat scores in {out['no_score_share']:.1%} of the games")
    out["degenerate"] = bool(reasons)
    out["reasons"] = reasons
    return out
