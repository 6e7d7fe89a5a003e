"""The run engine: plays a simulation's games in chunks on threads or a dask cluster, with a
chunk plan that fixes the result, progress, checkpoints and --precision stops (runner, jobs,
chunks, distributed, checkpoint). Imports simcore.base and simcore.frame.
"""
