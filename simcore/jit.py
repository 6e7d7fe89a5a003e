"""The compile decorators of the project.

`kernel`: numba nopython, cached, and compiled without the NRT (numba's reference-counted
memory manager). Every array passed into an NRT-enabled compiled function is increfed and
decrefed with atomic operations, ~10 ns per call even when inlined, which dominated the game
loop (measured; docs/performance.md); `_nrt=False` removes that. A kernel may therefore not
allocate arrays, slice arrays into views, or call functions that do: the allocating outer
drivers (play_game, play_batch) use plain `njit(cache=True)` and pass scratch arrays in.
If a numba version rejects the flag, kernels fall back to plain cached njit (slower, same
results).
"""

from __future__ import annotations

from numba import njit


def _nrt_flag_supported() -> bool:
    try:
        njit(_nrt=False)(lambda a: a[0])
        return True
    except Exception:  # pragma: no cover - depends on the numba version
        return False


_NO_NRT = {"_nrt": False} if _nrt_flag_supported() else {}


def kernel(fn=None, **options):
    """@kernel or @kernel(inline="always"): a cached, non-allocating compiled function."""
    opts = {"cache": True, **_NO_NRT, **options}
    if fn is None:
        return njit(**opts)
    return njit(**opts)(fn)
