"""What the compiled players of several games share: `after`, the verdict on an action.

A player checks every action it takes in the same way: the engine's error code first, then (in
checked mode) the game's invariants. The game's copy is compiled from the one template here,
bound to the game's own check_invariants, and cached in the game's cache directory (like the
shared driver's templates in simcore.frame.skeleton). The bound copy is a @kernel of its game:
simcore.frame.jit
hashes the top-level modules that name @kernel into every game's cache key, so a change here
recompiles the games' callers too.
"""

from __future__ import annotations

from collections.abc import Callable

from simcore.frame.jit import bound_copy, kernel


def _after(s, r, checked, err):
    """After an action: the engine's verdict, then (checked mode) the invariants."""
    if err != 0:
        return err
    if checked:
        return game_check_invariants(s, r)  # noqa: F821 (bound by bind_after)
    return 0


def bind_after(module: str, check_invariants: Callable, inline: str = "never") -> Callable:
    """The game's `after(s, r, checked, err)` over its compiled check_invariants(s, r),
    compiled for `module` (the game's players module, whose cache directory it shares);
    inline as for @kernel."""
    names = {"game_check_invariants": check_invariants}
    return bound_copy(_after, module, names, lambda f: kernel(f, inline=inline), "after")
