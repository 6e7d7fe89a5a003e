"""Bit helpers shared by the games' compiled code, usable compiled and as plain Python
(NUMBA_DISABLE_JIT=1: `balance bench --full` and tests/conformance/test_jit_equivalence.py run
the plain engine)."""

from __future__ import annotations

from numba.core.extending import overload
from numba.cpython.unsafe.numbers import trailing_zeros as _cttz


def trailing_zeros(m):
    """Index of the lowest set bit of m (m != 0, its 64 bits read as two's complement). Plain
    Python here; compiled, one instruction (the overload below)."""
    m = int(m)
    return (m & -m).bit_length() - 1


@overload(trailing_zeros)
def _trailing_zeros_compiled(m):
    return lambda m: _cttz(m)
