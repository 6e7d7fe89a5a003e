"""The row columns of a game's standing (how the game felt), written by the compiled
simcore.frame.standing and read by the analysis (simcore.base.metrics): named here, in a file of
their own, because the frame binds them into compiled code, so this file (and no other of the
base) is part of the numba cache key (simcore.frame.jit.BASE_DEPS): editing the analysis's
metric definitions in metrics.py recompiles nothing. docs/experience-metrics.md defines them."""

STANDING_COLUMNS = (
    "lead_changes",
    "drama_ppm",
    "decisive_ppm",
    "half_leader",
    "half_last",
    "standing_turns",
    "opening_ppm",
)
