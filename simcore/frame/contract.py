"""The game contract: everything a game plugs into the frame, declared in one object.

A game's `play` module builds one `GameContract` naming its compiled hooks, the state fields the
frame reads and writes, its result row and the sizes of its scratch, and hands it to
`simcore.frame.skeleton.bind_driver`. `GameContract.declare` builds it from a list of the
game's kernels, each the hook of its own name (a search player's module lists its hooks in one
tuple, HOOKS). The contract is checked when it is built (at the game's
import): a missing required hook, a hook that is not a compiled kernel, one with the wrong
number of arguments, or one defined in another game's package is one `ContractError` naming the
game and the hook, not a numba typing error at the first game played.

The hooks (arguments as the frame passes them; s: the state int64[STATE_SIZE], r: the packed
rules, tr: the trace buffer, x/xf: the players' int and float scratch, tab: the per-rules table):

    setup(s, r, tr, rng)                     deal the game into the (zeroed) state
    play_turn(s, r, tr, seat, pol, wts, rng, checked, x, xf, tab) -> err
                                             one seat's whole turn by policy `pol`
    check_invariants(s, r) -> err            0, or the code of the first broken invariant
    snapshot(tr, s)                          the trace's snapshot of the state before a turn
    scores(s, r, score, tiebreak)            each seat's score and tie-break
    record(tr, s, kind, a, b, c)             one trace record (the frame writes the game end)
    standing(s, r, seat) -> int64            the seat's standing (higher is better)

optional, with the frame's default:

    length(s, r) -> (rounds, turns)          default: rounds begun from state.turn
    winners(s, r, score, tiebreak)           default: most points, then the tie-break
    derived(s, r, k, seat) -> int64          counters of the row that are not state fields
    tables(r, tab)                           fill the per-rules table (table_size values)
    standing_version(s, r, t) -> int64       equal to an earlier value only if no standing
                                             changed since (default: every turn changes)

and the `search` player's (simcore.frame.search; a game without search_options and
search_play has no `search` player):

    search_options(s, r, seat, x, at) -> n   the candidates into x[at : at + n]
    search_play(s, r, tr, seat, opt, pol, wts, rng, checked, x, xf, tab) -> err
    search_step(... as search_play)          optional: only decision `opt` (default search_play)
    search_hide(s, r, seat, rng)             optional: resample what the seat cannot see
    search_more(s, r, seat, turn) -> bool    optional: another decision in this turn
    search_prefer(s, r, seat, base, wts, x, xf, at, n) -> i
                                             optional: the base player's candidate
    search_eval(s, r, seat, lead) -> float   optional: the value of a simulation cut at the
                                             horizon (default: the scores so far)

and the `trained` player's (simcore.frame.trained; only with the search's hooks, whose
candidates it scores, and with trained_width > 0):

    trained_features(s, r, seat, x, at, n, xf, out)
                                             each candidate's trained_width features
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numba

from simcore.base.errors import ContractError
from simcore.frame import search

# hook -> its arguments (the arity is checked; the names document it)
REQUIRED: dict[str, tuple[str, ...]] = {
    "setup": ("s", "r", "tr", "rng"),
    "play_turn": ("s", "r", "tr", "seat", "pol", "wts", "rng", "checked", "x", "xf", "tab"),
    "check_invariants": ("s", "r"),
    "snapshot": ("tr", "s"),
    "scores": ("s", "r", "score", "tiebreak"),
    "record": ("tr", "s", "kind", "a", "b", "c"),
    "standing": ("s", "r", "seat"),
}
_PLAY = ("s", "r", "tr", "seat", "opt", "pol", "wts", "rng", "checked", "x", "xf", "tab")
OPTIONAL: dict[str, tuple[str, ...]] = {
    "length": ("s", "r"),
    "winners": ("s", "r", "score", "tiebreak"),
    "derived": ("s", "r", "k", "seat"),
    "tables": ("r", "tab"),
    "standing_version": ("s", "r", "t"),
    "search_options": ("s", "r", "seat", "x", "at"),
    "search_play": _PLAY,
    "search_step": _PLAY,
    "search_hide": ("s", "r", "seat", "rng"),
    "search_more": ("s", "r", "seat", "turn"),
    "search_prefer": ("s", "r", "seat", "base", "wts", "x", "xf", "at", "n"),
    "search_eval": ("s", "r", "seat", "lead"),
    "trained_features": ("s", "r", "seat", "x", "at", "n", "xf", "out"),
}
# the search player's hooks as simcore.frame.search names them: both of HOOKS or neither, and
# the optional ones only with them
SEARCH_REQUIRED = search.HOOKS
SEARCH_OPTIONAL = (search.STEP_HOOK, *search.DEFAULT_HOOKS)
# modules whose kernels any game may name as a hook (the frame's shared helpers)
SHARED = ("simcore.frame.",)


# the fields of StateFields -> their names in a game's state module (docs/adding-a-game.md) and
# in the driver's templates
STATE_NAMES = {
    "size": "STATE_SIZE",
    "seat": "S_SEAT",
    "end_reason": "S_END_REASON",
    "game_over": "S_GAME_OVER",
    "error": "S_ERROR",
    "end_error": "END_ERROR",
    "game_end": "A_GAME_END",
    "turn": "S_TURN",
    "round": "S_ROUND",
}


@dataclass(frozen=True)
class StateFields:
    """The fields of a game's state that the frame reads and writes, and its codes."""

    size: int  # STATE_SIZE: values of the state
    seat: int  # the seat to play
    end_reason: int  # the end reason's field
    game_over: int  # 1 once the game is over
    error: int  # the first error code (0: none)
    end_error: int  # the end reason the frame sets when a turn returns an error
    game_end: int  # the kind of the trace's game-end record
    trace_full: int  # the error code of a full trace buffer
    turn: int = -1  # the turn counter (for the default `length`; -1: the game gives `length`)
    round: int = -1  # the round counter, 0-based (the search's `start`; -1: the game has none)

    @classmethod
    def of(cls, state: Any, trace_full: int) -> StateFields:
        """The fields from a game's state module that follows the naming convention of
        docs/adding-a-game.md (STATE_SIZE, S_SEAT, S_TURN, S_END_REASON, S_GAME_OVER, S_ERROR,
        END_ERROR, A_GAME_END), and the engine's error code of a full trace buffer. A name
        the module lacks is one ContractError naming the module and the name."""
        names = {k: n for k, n in STATE_NAMES.items() if k not in ("turn", "round")}
        missing = [n for n in names.values() if not hasattr(state, n)]
        if missing:
            raise ContractError(f"{state.__name__}: the state module has no {', '.join(missing)}")
        values = {k: int(getattr(state, n)) for k, n in names.items()}
        return cls(
            **values,
            trace_full=int(trace_full),
            turn=int(getattr(state, "S_TURN", -1)),
            round=int(getattr(state, "S_ROUND", -1)),
        )

    def constants(self) -> dict[str, int]:
        """The names the driver's templates read (simcore.frame.skeleton, bound per game): the
        state module's names, and ERR_TRACE."""
        named = {n: getattr(self, k) for k, n in STATE_NAMES.items()}
        return named | {"ERR_TRACE": self.trace_full}


@dataclass(frozen=True)
class GameContract:
    """One game's declaration to the frame (this module's docstring). module: the game's play
    module (its `__name__`), whose package owns every hook and whose cache directory the
    compiled frame shares; layout: the result row (simcore.frame.skeleton.RowLayout)."""

    module: str
    layout: Any
    state: StateFields
    setup: Callable
    play_turn: Callable
    check_invariants: Callable
    snapshot: Callable
    scores: Callable
    record: Callable
    standing: Callable
    length: Callable | None = None
    winners: Callable | None = None
    derived: Callable | None = None
    tables: Callable | None = None
    standing_version: Callable | None = None
    search_options: Callable | None = None
    search_play: Callable | None = None
    search_step: Callable | None = None
    search_hide: Callable | None = None
    search_more: Callable | None = None
    search_prefer: Callable | None = None
    search_eval: Callable | None = None
    trained_features: Callable | None = None
    trained_width: int = 0  # the features of a candidate (simcore.frame.trained)
    x_size: int = 0  # the players' int scratch
    x_zeroed: int | None = None  # how much of it is zeroed before a game (default: all)
    xf_size: int = 0  # the players' float scratch
    table_size: int = 0  # the per-rules table
    zero_state: bool = True  # False: setup writes every field, the state is not zeroed

    def __post_init__(self) -> None:
        game = self.package
        for name in REQUIRED:
            if getattr(self, name) is None:
                raise ContractError(f"{game}: the required hook '{name}' is missing")
        for name, args in (REQUIRED | OPTIONAL).items():
            hook = getattr(self, name)
            if hook is not None:
                _check_hook(game, name, hook, args)
        given = [n for n in SEARCH_REQUIRED if getattr(self, n) is not None]
        if len(given) == 1:
            other = next(n for n in SEARCH_REQUIRED if n not in given)
            raise ContractError(f"{game}: hook '{given[0]}' is given without '{other}'")
        if not given:
            extra = [n for n in SEARCH_OPTIONAL if getattr(self, n) is not None]
            if extra:
                raise ContractError(
                    f"{game}: hook '{extra[0]}' is given without search_options and search_play"
                )
        if self.trained_features is not None and (not given or self.trained_width <= 0):
            raise ContractError(
                f"{game}: hook 'trained_features' needs the search's hooks and trained_width > 0"
            )
        if self.state.turn < 0 and self.length is None:
            raise ContractError(f"{game}: the hook 'length' is missing (no state.turn field)")
        for f in ("x_size", "xf_size", "table_size"):
            if getattr(self, f) < 0:
                raise ContractError(f"{game}: {f} must not be negative")

    @classmethod
    def declare(
        cls, module: str, layout: Any, state: StateFields, *hooks: Any, **named: Any
    ) -> GameContract:
        """The contract of a game's play `module` from its kernels: each of `hooks` (a kernel,
        or a tuple of kernels such as a search player's HOOKS) is the hook of its own name
        (engine.setup is `setup`); `named` gives a hook under another name (tables=lock_table)
        and the sizes (x_size, ...). A kernel named like no hook, or a hook given twice, is one
        ContractError naming the game and the kernel; every hook is then checked as always."""
        game = module.rpartition(".")[0]
        fields: dict[str, Any] = {}
        for hook in _flat(hooks):
            name = getattr(getattr(hook, "py_func", hook), "__name__", repr(hook))
            if name not in REQUIRED and name not in OPTIONAL:
                raise ContractError(f"{game}: kernel '{name}' is named like no hook")
            if name in fields:
                raise ContractError(f"{game}: hook '{name}' is given twice")
            fields[name] = hook
        for name in fields.keys() & named.keys():
            raise ContractError(f"{game}: hook '{name}' is given twice")
        return cls(module=module, layout=layout, state=state, **fields, **named)

    @property
    def package(self) -> str:
        """The game's package (the play module's parent)."""
        return self.module.rpartition(".")[0]

    @property
    def has_search(self) -> bool:
        return self.search_options is not None

    @property
    def has_trained(self) -> bool:
        return self.trained_features is not None

    def hooks(self) -> dict[str, Callable]:
        """The hooks given, by name."""
        names = (*REQUIRED, *OPTIONAL)
        return {n: getattr(self, n) for n in names if getattr(self, n) is not None}


def _flat(hooks: tuple[Any, ...]) -> list[Any]:
    """The kernels of `hooks`, tuples of kernels opened."""
    return [k for h in hooks for k in (h if isinstance(h, tuple) else (h,))]


def _check_hook(game: str, name: str, hook: Any, args: tuple[str, ...]) -> None:
    fn = getattr(hook, "py_func", None)
    if fn is None and numba.config.DISABLE_JIT and callable(hook):
        fn = hook  # NUMBA_DISABLE_JIT=1: the kernels are the plain functions
    if fn is None:
        raise ContractError(
            f"{game}: hook '{name}' is not a compiled kernel (declare it with "
            "simcore.frame.jit.kernel)"
        )
    params = inspect.signature(fn).parameters.values()
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    needed = [p for p in positional if p.default is p.empty]
    if not len(needed) <= len(args) <= len(positional):
        takes = f"{len(needed)} to {len(positional)}" if needed != positional else len(needed)
        raise ContractError(
            f"{game}: hook '{name}' takes {takes} arguments, the frame passes "
            f"{len(args)} ({', '.join(args)})"
        )
    where = fn.__module__
    own = where == game or where.startswith(game + ".")
    if not own and not where.startswith(_shared_prefixes(game)):
        raise ContractError(f"{game}: hook '{name}' is {where}.{fn.__name__}, of another package")


def _shared_prefixes(game: str) -> tuple[str, ...]:
    """The frame's modules, under the name the game's top package has (tools/ab_bench.py
    imports copies of simcore under other names)."""
    top = game.split(".")[0]
    return tuple(top + p[len("simcore") :] for p in SHARED)
