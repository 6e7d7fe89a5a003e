"""The compiled frame every game plugs into (numba).

The compile decorators and cache (jit), random streams (rng), bit helpers (bits), the trace
buffer (tracebuf), the standings' accumulator (standing), seat policies (seats), the players'
helpers (playerkit), the `search` player (search), the game contract (contract), the driver
templates (skeleton), replay and the registry of games (registry). Imports only simcore.base.
"""
