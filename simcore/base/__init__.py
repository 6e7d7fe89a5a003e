"""The base layer: what every other layer and `analysis` may use, numba-free (numpy; scipy for
the verdicts' quantiles).

Rules resolution and variant files (rulesbase), the metrics' definitions and moments (metrics),
input checks and atomic writes (inputs), preset files (presetfile), the Pareto front (pareto),
the errors (errors), and the judgments the studies and the renderers share: the verdict engine
(verdicts) and the fairness of seat compensation (fairness); and what the studies hand to the
renderers (results: protocols of the studies' results, the report's runs). Imports nothing of
simcore above it (tests/test_layers.py).
"""
