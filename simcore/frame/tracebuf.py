"""The trace buffer every game shares: one int32 array with a header, then fixed-width action
records, then whole-state snapshots. Games choose the record width and state size; the
kernels here reserve a record slot and copy a snapshot, and the Python helpers build and read
the buffer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from simcore.frame.jit import bound_copy, kernel

T_ON = 0  # 1 record, 0 off
T_NA = 1  # action records written (may exceed the capacity: overflow)
T_NS = 2  # snapshots written
T_CAPA = 3  # action capacity
T_CAPS = 4  # snapshot capacity
T_HEADER = 8


@kernel
def reserve_record(tr, width):
    """Offset of the next action record of `width` ints, or -1 (tracing off, or full: the
    count still grows so that the overflow is seen)."""
    if tr[T_ON] == 0:
        return -1
    n = tr[T_NA]
    tr[T_NA] = n + 1
    if n >= tr[T_CAPA]:
        return -1
    return T_HEADER + n * width


@kernel(inline="always")
def put_record(tr, width, clock, seat, kind, a, b, c, d, e, f, g, h, i):
    """Append one action record (clock, seat, kind, then a.. up to the record's width) when
    tracing is on; a game's `record` calls this with its turn (or decision) counter."""
    o = reserve_record(tr, width)
    if o < 0:
        return
    tr[o] = clock
    tr[o + 1] = seat
    tr[o + 2] = kind
    tr[o + 3] = a
    tr[o + 4] = b
    tr[o + 5] = c
    tr[o + 6] = d
    tr[o + 7] = e
    tr[o + 8] = f
    if width > 9:
        tr[o + 9] = g
        tr[o + 10] = h
        tr[o + 11] = i


@kernel(inline="always")
def trace_full(tr):
    """True when tracing is on and the buffer overflowed (the game stops with ERR_TRACE)."""
    return tr[T_ON] == 1 and (tr[T_NA] > tr[T_CAPA] or tr[T_NS] > tr[T_CAPS])


@kernel
def write_snapshot(tr, s, width, size):
    """Append the state s (its first `size` values) as a snapshot when tracing is on."""
    if tr[T_ON] == 0:
        return
    n = tr[T_NS]
    tr[T_NS] = n + 1
    if n >= tr[T_CAPS]:
        return
    o = T_HEADER + tr[T_CAPA] * width + n * size
    for k in range(size):
        tr[o + k] = s[k]


def make_trace(
    cap_actions: int, cap_snaps: int, width: int, size: int, enabled: bool
) -> np.ndarray:
    """A trace buffer (enabled=False: the header only, nothing is recorded)."""
    if not enabled:
        return np.zeros(T_HEADER, dtype=np.int32)
    tr = np.zeros(T_HEADER + cap_actions * width + cap_snaps * size, dtype=np.int32)
    tr[T_ON] = 1
    tr[T_CAPA] = cap_actions
    tr[T_CAPS] = cap_snaps
    return tr


def read_actions(tr: np.ndarray, width: int) -> np.ndarray:
    n = min(int(tr[T_NA]), int(tr[T_CAPA]))
    return tr[T_HEADER : T_HEADER + n * width].reshape(n, width)


def read_snapshots(tr: np.ndarray, width: int, size: int) -> np.ndarray:
    base = T_HEADER + int(tr[T_CAPA]) * width
    n = min(int(tr[T_NS]), int(tr[T_CAPS]))
    return tr[base : base + n * size].reshape(n, size).astype(np.int64)


def overflowed(tr: np.ndarray) -> bool:
    return bool(tr[T_ON]) and (tr[T_NA] > tr[T_CAPA] or tr[T_NS] > tr[T_CAPS])


@dataclass(frozen=True)
class TraceShape:
    """A game's trace buffer: records of `width` ints (9 or 12), snapshots of the state's first
    `snap_size` ints, room for `actions_per_turn` records a turn (or decision). whole: for a
    game that records part of its state, the whole states (int64[n, STATE_SIZE]) from the
    snapshots read (int64[n, snap_size]); `snapshots` returns what it gives."""

    width: int
    snap_size: int
    actions_per_turn: int
    whole: Callable[[np.ndarray], np.ndarray] | None = None

    def new(self, max_turns: int = 0, enabled: bool = False) -> np.ndarray:
        """A buffer for up to max_turns turns (enabled=False: the header only)."""
        return make_trace(
            max_turns * self.actions_per_turn + 64,
            max_turns + 2,
            self.width,
            self.snap_size,
            enabled,
        )

    def actions(self, tr: np.ndarray) -> np.ndarray:
        return read_actions(tr, self.width)

    def snapshots(self, tr: np.ndarray) -> np.ndarray:
        snaps = read_snapshots(tr, self.width, self.snap_size)
        return snaps if self.whole is None else self.whole(snaps)


def _record(tr, s, kind, a=0, b=0, c=0, d=0, e=0, f=0, g=0, h=0, i=0):  # pragma: no cover
    """Append one action record (the state's clock, the seat, kind, then a.. up to the
    record's width) when tracing is on."""
    put_record(tr, WIDTH, s[CLOCK], s[SEAT], kind, a, b, c, d, e, f, g, h, i)  # noqa: F821


def _snapshot(tr, s):  # pragma: no cover - compiled
    """Append the state before a turn (its first SNAP_SIZE values) when tracing is on."""
    write_snapshot(tr, s, WIDTH, SNAP_SIZE)  # noqa: F821


def trace_kernels(
    module: str, width: int, clock: int, seat: int, snap_size: int, inline: str = "never"
):
    """A game's `record(tr, s, kind, a, ...)` and `snapshot(tr, s)` kernels, compiled for its
    engine `module`: records of `width` ints that start with s[clock] (the turn or decision
    counter) and s[seat], snapshots of the state's first `snap_size` values; `record` inlined
    as for @kernel(inline=...)."""
    names = {**globals(), "WIDTH": width, "CLOCK": clock, "SEAT": seat, "SNAP_SIZE": snap_size}
    record = bound_copy(_record, module, names, lambda f: kernel(f, inline=inline), "record")
    return record, bound_copy(_snapshot, module, names, name="snapshot")
