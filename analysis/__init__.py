"""Statistics, comparisons, plots and reports on simulation results (pandas; never numba)."""

from analysis.summary import result_json, summarize

__all__ = ["summarize", "result_json"]
