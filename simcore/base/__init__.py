"""The base layer: what every other layer and `analysis` may use, numba-free (numpy only).

Rules resolution and variant files (rulesbase), the metrics' definitions and moments (metrics),
input checks and atomic writes (inputs), preset files (presetfile), the Pareto front (pareto)
and the errors (errors). Imports nothing of simcore above it (tests/test_layers.py).
"""
