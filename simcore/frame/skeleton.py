"""The frame every game plugs into: the result row, winners and ties, and the batch driver.

A game package writes only what is its own (rules, board, state layout, engine verbs, players,
its turn and trace rendering). Its `play.py` declares its result counters in a `RowLayout`, its
hooks and state fields in one `GameContract` (simcore.frame.contract, which lists the hooks and
checks them), and calls `DRIVER = bind_driver(CONTRACT)`, which builds the game's `run_game`,
`play_game` and `play_batch` from the templates below: the turn loop `play_turns` calls the
game's `play_turn` (or the `search` player's turn) until the game is over.

The scratch of one game is the same for every game: the state s (int64[STATE_SIZE]), an int
scratch x (int64[X_SIZE]) and a float scratch xf (float64[XF_SIZE]) of the players, zeroed
before each game, and a table tab (float64[TABLE_SIZE]) that depends on the rules only. Behind
the players' part of x and xf (and the search's) lies the accumulator of the standings
(simcore.frame.standing, at XM and XFM), reset by run_game before each game.

A game depends only on (rules, policies, seed, game index): its random stream comes from
simcore.frame.rng.stream_for(seed, index), never from the thread count or the chunking.

Why templates: numba's on-disk cache does not work for closures over compiled functions. So
the templates are plain functions whose free names (the hooks and the game's constants) are
bound by giving each game its own copy with its own globals (simcore.frame.jit.bound_copy); the copy
is cached in the game's cache directory like any function of the game.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import prange

from simcore.base.errors import ContractError
from simcore.frame import search, trained
from simcore.frame.contract import GameContract
from simcore.frame.jit import bound_copy, driver, kernel
from simcore.frame.rng import stream_for
from simcore.frame.seats import seat_policies
from simcore.frame.standing import (
    F_SIZE,
    M_SIZE,
    M_T,
    MAX_SEATS,
    STANDING_COLUMNS,
    log_commit,
    log_put,
    log_slot,
    standing_row,
    standing_start,
)
from simcore.frame.tracebuf import T_HEADER, T_ON, trace_full

P_PLAYERS = 0  # every game's packed rules array starts with the player count
DERIVED = -1  # a counter that is not one state field: the game's `derived` hook computes it
BLOCK = 64  # games per block of play_batch: one scratch per block, not per game
MIN_BLOCKS = 16  # ... and at least this many blocks of a smaller batch (the threads kept busy)
MIN_BLOCK_GAMES = 4  # ... of at least this many games
COMMON = ("game", "players", "winner", "win_mask", "rounds", "turns", "end_reason")
PER_SEAT = ("score", "tiebreak", "policy")


def counter_block(names: tuple[str, ...], first: int = 0) -> tuple[tuple[str, int], ...]:
    """The counters of a block of consecutive fields exported whole, in order: (names[k],
    first + k), names being the state module's tuple of the fields' names by index (as
    END_REASONS names the END_* codes)."""
    return tuple((name, first + k) for k, name in enumerate(names))


def common_columns(max_players: int) -> list[str]:
    """The columns every game's row starts with (DESIGN.md, "Result rows")."""
    cols = list(COMMON)
    for name in PER_SEAT:
        cols += [f"{name}_{s}" for s in range(max_players)]
    return cols


@dataclass(frozen=True)
class RowLayout:
    """A game's result row: the common columns, the game's counters, each seat's counters,
    `error`, then the experience metrics every game has (simcore.frame.standing.STANDING_COLUMNS,
    last, so that every other column keeps its place). A counter is (name, source): the state
    offset it is copied from (for a seat counter: the offset inside the seat's counter block,
    seat_base + seat * seat_stride), or DERIVED when the game's `derived` hook computes it."""

    max_players: int
    game_counters: tuple[tuple[str, int], ...]
    seat_counters: tuple[tuple[str, int], ...]
    seat_base: int = 0
    seat_stride: int = 0
    columns: list[str] = field(init=False)

    def __post_init__(self) -> None:
        cols = common_columns(self.max_players) + [n for n, _ in self.game_counters]
        cols += [f"{n}_{s}" for n, _ in self.seat_counters for s in range(self.max_players)]
        object.__setattr__(self, "columns", cols + ["error", *STANDING_COLUMNS])
        if len(set(self.columns)) != len(self.columns):
            raise ValueError("a counter name is given twice")

    @property
    def game_counter_names(self) -> list[str]:
        return [n for n, _ in self.game_counters]

    @property
    def seat_counter_names(self) -> list[str]:
        return [n for n, _ in self.seat_counters]

    def col(self, name: str) -> int:
        """The column of a common column, a game counter, or `name_<seat>`."""
        return self.columns.index(name)

    def counter(self, name: str) -> int:
        """The number k the `derived` hook is asked for: game counters first, then seat
        counters."""
        names = self.game_counter_names + self.seat_counter_names
        return names.index(name)

    def constants(self) -> dict[str, Any]:
        """The names the row templates read (bound into the game's copy of them)."""
        return {
            "MAX_PLAYERS": self.max_players,
            "N_COLS": len(self.columns),
            "R_GAME": self.col("game"),
            "R_PLAYERS": self.col("players"),
            "R_WINNER": self.col("winner"),
            "R_WIN_MASK": self.col("win_mask"),
            "R_ROUNDS": self.col("rounds"),
            "R_TURNS": self.col("turns"),
            "R_END": self.col("end_reason"),
            "R_SCORE": self.col("score_0"),
            "R_TIEBREAK": self.col("tiebreak_0"),
            "R_POLICY": self.col("policy_0"),
            "R_GAME_CNT": len(common_columns(self.max_players)),
            "R_SEAT_CNT": len(common_columns(self.max_players)) + len(self.game_counters),
            "R_ERROR": self.col("error"),
            "R_STAND": self.col(STANDING_COLUMNS[0]),
            "GAME_SRC": np.array([src for _, src in self.game_counters], dtype=np.int64),
            "SEAT_SRC": np.array([src for _, src in self.seat_counters], dtype=np.int64),
            "N_GAME_CNT": len(self.game_counters),
            "SEAT_BASE": self.seat_base,
            "SEAT_STRIDE": self.seat_stride,
        }


# ------------------------------------------------------------------------------ winners
@kernel
def winners_by_score(players, score, tiebreak):
    """(winner seat or -1 for a shared win, bitmask of the seats sharing first place): the
    most points win, a tie goes to the best tie-break, a tie in both is shared."""
    best = 0
    for seat in range(1, players):
        if score[seat] > score[best] or (
            score[seat] == score[best] and tiebreak[seat] > tiebreak[best]
        ):
            best = seat
    mask = 0
    n = 0
    for seat in range(players):
        if score[seat] == score[best] and tiebreak[seat] == tiebreak[best]:
            mask |= 1 << seat
            n += 1
    return (best if n == 1 else -1), mask


@kernel(inline="always")
def ahead_if_won(value, won, bits):
    """A seat's standing that puts the winner ahead of every other seat: value (below
    2**bits), plus 2**bits when the seat `won`."""
    if won:
        return value + (1 << bits)
    return value


@kernel
def winners_of_scores(s, r, score, tiebreak):
    """The default `winners` hook: winners_by_score over the seats of the game."""
    return winners_by_score(r[P_PLAYERS], score, tiebreak)


@kernel
def no_derived(s, r, k, seat):
    """The default `derived` hook (a game whose counters are all state fields)."""
    return 0


@kernel
def no_tables(r, tab):
    """The default `tables` hook (a game without per-rules tables)."""
    return


@kernel(inline="always")
def every_turn(s, r, t):
    """The default `standing_version` hook: a new version after every turn t (the standings
    are looked at after every turn)."""
    return t


# ------------------------------------------------------------------------------ templates
# Plain functions: `bind_driver` compiles a copy of each per game, with the game's hooks and
# constants as its globals (hook names are prefixed game_).


def fill_row(s, r, index, policy_idx, score, tb, rows, i):  # pragma: no cover - compiled
    """Write the result row rows[i] of a finished game (score, tb: int64[MAX_PLAYERS])."""
    players = r[P_PLAYERS]
    for k in range(rows.shape[1]):
        rows[i, k] = 0
    rows[i, R_GAME] = index  # noqa: F821 - the names in capitals are bound per game
    rows[i, R_PLAYERS] = players  # noqa: F821
    for k in range(MAX_PLAYERS):  # noqa: F821
        score[k] = 0
        tb[k] = 0
    game_scores(s, r, score, tb)  # noqa: F821
    w, mask = game_winners(s, r, score, tb)  # noqa: F821
    if s[S_ERROR] != 0:  # noqa: F821
        w, mask = -1, 0
    rows[i, R_WINNER] = w  # noqa: F821
    rows[i, R_WIN_MASK] = mask  # noqa: F821
    rounds, turns = game_length(s, r)  # noqa: F821
    rows[i, R_ROUNDS] = rounds  # noqa: F821
    rows[i, R_TURNS] = turns  # noqa: F821
    rows[i, R_END] = s[S_END_REASON]  # noqa: F821
    for seat in range(MAX_PLAYERS):  # noqa: F821
        rows[i, R_SCORE + seat] = score[seat]  # noqa: F821
        rows[i, R_TIEBREAK + seat] = tb[seat]  # noqa: F821
        rows[i, R_POLICY + seat] = policy_idx[seat] if seat < players else -1  # noqa: F821
    for k in range(GAME_SRC.shape[0]):  # noqa: F821
        src = GAME_SRC[k]  # noqa: F821
        v = s[src] if src >= 0 else game_derived(s, r, k, -1)  # noqa: F821
        rows[i, R_GAME_CNT + k] = v  # noqa: F821
    for j in range(SEAT_SRC.shape[0]):  # noqa: F821
        src = SEAT_SRC[j]  # noqa: F821
        for seat in range(players):
            if src >= 0:
                v = s[SEAT_BASE + seat * SEAT_STRIDE + src]  # noqa: F821
            else:
                v = game_derived(s, r, N_GAME_CNT + j, seat)  # noqa: F821
            rows[i, R_SEAT_CNT + j * MAX_PLAYERS + seat] = v  # noqa: F821
    rows[i, R_ERROR] = s[S_ERROR]  # noqa: F821


def rounds_begun(s, r):  # pragma: no cover - compiled
    """The default `length`: (rounds begun, turns played) from the turn counter S_TURN (a
    game may end in the middle of a round)."""
    players = r[P_PLAYERS]
    return (s[S_TURN] + players - 1) // players, s[S_TURN]  # noqa: F821


def play_turns(s, r, pols, wts, rng, checked, tr, x, xf, tab):  # pragma: no cover - compiled
    """The turn loop of a game played turn by turn: the seat to play plays its whole turn
    until the game is over (a snapshot before each turn when tracing; invariants checked at
    the start in checked mode, the players check them after each action). Returns 0 or the
    first error code. Counts the completed turns t for the standings' accumulator, and looks
    at the standings only after a turn whose `standing_version` differs from the last one
    seen (with the default hook, after every turn)."""
    err = game_check_invariants(s, r) if checked else 0  # noqa: F821
    players = r[P_PLAYERS]
    t = 0
    seen = -1
    while err == 0 and s[S_GAME_OVER] == 0:  # noqa: F821
        seat = s[S_SEAT]  # noqa: F821
        if tr[T_ON] == 1:
            game_snapshot(tr, s)  # noqa: F821
        pol = pols[seat]
        if pol == SEARCH_ID:  # noqa: F821
            err = search_turn(s, r, tr, seat, pols, wts, rng, checked, x, xf, tab)  # noqa: F821
        elif HAS_TRAINED and pol == TRAINED_ID:  # noqa: F821 - False (a constant) without the hook
            err = trained_turn(s, r, tr, seat, wts, rng, checked, x, xf, tab)  # noqa: F821
        else:
            err = game_play_turn(s, r, tr, seat, pol, wts, rng, checked, x, xf, tab)  # noqa: F821
        if err == 0:
            t += 1
            version = game_standing_version(s, r, t)  # noqa: F821
            if version != seen:
                seen = version
                standing_check(s, r, x, xf, players, t)
        if trace_full(tr):
            err = ERR_TRACE  # noqa: F821
    x[XM + M_T] = t  # noqa: F821
    return err


def standing_check(s, r, x, xf, players, t):  # pragma: no cover - compiled
    """After completed turn t of the real game that may have changed a standing: every seat's
    standing (the game's `standing` hook) written into the log's next entry and compared with
    the current run's (simcore.frame.standing); the entry becomes a new run when one differs (or on
    the first turn), without a branch. Nothing with one player."""
    if players > 1:
        e = log_slot(x, XM)  # noqa: F821
        d = 0
        for k in range(players):
            d |= log_put(x, e, k, game_standing(s, r, k))  # noqa: F821
        log_commit(x, XM, xf, XFM, players, t, e, d)  # noqa: F821


def run_game(r, pol_ids, weights, seed, index, rotate, checked, tr, rows, i, g):  # pragma: no cover
    """Play game `index` under `seed` and write its result row rows[i], in the scratch of
    one game g = (s, x, xf, tab, rng, pols, wts, policy_idx, score, tb), reused from game
    to game: s (unless its setup writes all of it), x (its first X_ZEROED values) and xf are
    zeroed here; tab depends on the rules only. An error of the turn loop ends the game with
    END_ERROR and the code in S_ERROR. pol_ids: int64[entries] and weights: float64[entries,
    W] are the policy list before seat rotation (or a population, simcore.frame.seats)."""
    s, x, xf, tab, rng, pols, wts, policy_idx, score, tb = g
    players = r[P_PLAYERS]
    stream_for(np.uint64(seed), np.uint64(index), rng)
    seat_policies(players, index, rotate, pol_ids, weights, pols, wts, policy_idx)
    for k in range(S_ZEROED):  # noqa: F821
        s[k] = 0
    for k in range(X_ZEROED):  # noqa: F821
        x[k] = 0
    for k in range(XF_ZEROED):  # noqa: F821
        xf[k] = 0.0
    game_setup(s, r, tr, rng)  # noqa: F821
    standing_start(x, XM)  # noqa: F821
    err = play_turns(s, r, pols, wts, rng, checked, tr, x, xf, tab)  # noqa: F821
    if err != 0:
        s[S_ERROR] = err  # noqa: F821
        s[S_END_REASON] = END_ERROR  # noqa: F821
        s[S_GAME_OVER] = 1  # noqa: F821
    fill_row(s, r, index, policy_idx, score, tb, rows, i)
    standing_row(x, XM, xf, XFM, players, rows[i, R_WINNER], rows, i, R_STAND)  # noqa: F821
    w, mask = rows[i, R_WINNER], rows[i, R_WIN_MASK]  # noqa: F821
    game_record(tr, s, A_GAME_END, s[S_END_REASON], w, mask, s[S_ERROR])  # noqa: F821


def new_scratch(r, w):  # pragma: no cover - compiled
    """The scratch of one game (see run_game); w: weights per seat."""
    tab = np.zeros(TABLE_SIZE, dtype=np.float64)  # noqa: F821
    game_tables(r, tab)  # noqa: F821
    # the standings' accumulator at XM (24 KB) is written before it is read
    # (simcore.frame.standing), so it is not cleared
    x = np.empty(X_SIZE, dtype=np.int64)  # noqa: F821
    for k in range(XM):  # noqa: F821
        x[k] = 0
    return (
        np.zeros(STATE_SIZE, dtype=np.int64),  # noqa: F821
        x,
        np.zeros(XF_SIZE, dtype=np.float64),  # noqa: F821
        tab,
        np.zeros(1, dtype=np.uint64),
        np.zeros(MAX_PLAYERS, dtype=np.int64),  # noqa: F821
        np.zeros((MAX_PLAYERS, w), dtype=np.float64),  # noqa: F821
        np.full(MAX_PLAYERS, -1, dtype=np.int64),  # noqa: F821
        np.zeros(MAX_PLAYERS, dtype=np.int64),  # noqa: F821
        np.zeros(MAX_PLAYERS, dtype=np.int64),  # noqa: F821
    )


def play_game(r, pol_ids, weights, seed, index, rotate, checked, tr, row):  # pragma: no cover
    """Play game `index` under `seed` and write its result row. tr: trace buffer. Returns the
    final state (int64[STATE_SIZE])."""
    g = new_scratch(r, weights.shape[1])
    rows = row.reshape((1, row.shape[0]))
    # the argument types of play_batch's call (index int64, i not a literal), so that
    # run_game, the largest function of a game, is compiled once for both
    i = rows.shape[0] - 1
    run_game(r, pol_ids, weights, seed, np.int64(index), rotate, checked, tr, rows, i, g)
    return g[0]


def play_batch(r, pol_ids, weights, seed, start, rotate, checked, rows):  # pragma: no cover
    """Play games start .. start + n - 1 in parallel; rows: int64[n, N_COLS]. The games are
    split in blocks of at most BLOCK, at least MIN_BLOCKS of them when there are games
    enough (a batch of 166 games in blocks of 64 gave one thread two blocks and the other one:
    a third of the time lost); each block allocates its scratch once. A game depends only on
    (rules, players, seed, index), never on its block: the rows are the same for any split."""
    n = rows.shape[0]
    size = min(BLOCK, max(MIN_BLOCK_GAMES, (n + MIN_BLOCKS - 1) // MIN_BLOCKS))
    nb = (n + size - 1) // size
    for b in prange(nb):
        tr = np.zeros(T_HEADER, dtype=np.int32)
        g = new_scratch(r, weights.shape[1])
        for i in range(b * size, min(n, (b + 1) * size)):
            run_game(r, pol_ids, weights, seed, start + i, rotate, checked, tr, rows, i, g)


def no_search_turn(s, r, tr, seat, pols, wts, rng, checked, x, xf, tab):  # pragma: no cover
    """The `search_turn` of a game without a search player (never called: its policy list
    has no `search`, so no seat has its id)."""
    return END_ERROR  # noqa: F821


def _inlined(dispatcher) -> bool:
    """Whether a compiled hook is inlined into its callers (kernel(inline="always"))."""
    return getattr(dispatcher, "targetoptions", {}).get("inline") == "always"


# (template, compile decorator) in the order they are bound
_TEMPLATES: tuple[tuple[Callable, Callable], ...] = (
    (rounds_begun, kernel),
    (search.search_value, kernel),
    (search.simulate, kernel),
    (search.decided, kernel),
    (search.paired_moments, kernel),
    (search.paired_clear, kernel),
    (search.save_root, kernel),
    (search.restore_root, kernel),
    (search.halving, kernel),
    (search.paired, kernel),
    (search.search_round, kernel),
    (search.search_decision, kernel),
    (search.search_turn, kernel),
    (no_search_turn, kernel),
    (standing_check, lambda f: kernel(f, inline="always")),
    (play_turns, lambda f: kernel(f, inline="always")),
    (fill_row, kernel),
    (run_game, kernel),
    (new_scratch, driver),
    (play_game, driver),
    (play_batch, driver(parallel=True)),
)


_HOOKS = ("setup", "scores", "record", "standing")
_OPTIONAL = {
    "winners": winners_of_scores,
    "derived": no_derived,
    "tables": no_tables,
    "standing_version": every_turn,
}


def _bind_trained(contract: GameContract, g: dict, gs: dict, out: types.SimpleNamespace) -> dict:
    """The trained player's templates (simcore.frame.trained) bound for a game with its hook:
    trained_turn for the turn loop, and the search's globals (returned) with a game_play_turn
    that plays a `trained` seat in the simulations too, and for a search over `trained`
    (search:base=trained) a game_search_prefer that asks the model for its choice and a
    game_search_step and game_search_play that complete its decisions as the model does;
    out.trained_names: the templates' globals (simcore.studies.train binds its training loop
    with them). Without the hook the turn loop's branch is dead (HAS_TRAINED false) and gs is
    returned as it is."""
    module = contract.module
    if not contract.has_trained:
        g["trained_turn"] = bound_copy(trained.no_trained_turn, module, g, kernel)
        out.trained_names = None
        return gs
    gt = {**vars(trained), **gs}  # game_play_turn: the game's own (called) turn
    for template in trained.TEMPLATES:
        gt[template.__name__] = bound_copy(template, module, gt, kernel)
    g["trained_turn"] = gt["trained_turn"]
    gs = dict(gs)
    gs["game_play_turn"] = gt["turn_of"]
    gs["game_search_prefer"] = gt["prefer_of"]
    gs["game_search_step"] = gt["step_of"]
    gs["game_search_play"] = gt["play_of"]
    out.trained_names = gt
    return gs


def bind_driver(contract: GameContract) -> types.SimpleNamespace:
    """The game's copy of the driver: a namespace with module, layout, columns, contract,
    run_game, play_game and play_batch (and the other templates), compiled (lazily) for the
    game's play module (contract.module), whose cache directory they share. Every hook and
    state field comes from the contract (simcore.frame.contract, checked when it was built)."""
    module, layout, st = contract.module, contract.layout, contract.state
    hooks = contract.hooks()
    x_size, xf_size = contract.x_size, contract.xf_size
    g = dict(vars(search))
    g.update(globals())
    g.update(layout.constants(), **st.constants())
    g.update({f"game_{n}": hooks[n] for n in _HOOKS + ("length",) if n in hooks})
    g.update({f"game_{n}": hooks.get(n, default) for n, default in _OPTIONAL.items()})
    g.update(
        __name__=module,
        X_ZEROED=x_size if contract.x_zeroed is None else contract.x_zeroed,
        XF_ZEROED=xf_size,
        S_ZEROED=st.size if contract.zero_state else 0,
        TABLE_SIZE=max(contract.table_size, 1),
        SEARCH_ID=search.SEARCH_ID,
        N_PARAMS=search.N_PARAMS,
        game_play_turn=contract.play_turn,
        game_check_invariants=contract.check_invariants,
        game_snapshot=contract.snapshot,
    )
    has_search = contract.has_search
    if has_search:  # the search's working memory behind the players' scratch
        g.update({f"game_{n}": hooks.get(n, d) for n, d in search.DEFAULT_HOOKS.items()})
        g.update({f"game_{n}": hooks[n] for n in search.HOOKS})
        g["game_search_step"] = hooks.get(search.STEP_HOOK, contract.search_play)
        if contract.has_trained:
            g["game_trained_features"] = hooks[trained.HOOK]
        g["SEARCH_EVAL"] = "search_eval" in hooks  # a compile-time constant
        g.update(search.offsets(x_size, xf_size, st.size, layout.max_players))
        x_size += search.x_tail(x_size, st.size, layout.max_players)
        xf_size += search.xf_tail(xf_size)
    has_trained = contract.has_trained
    g.update(HAS_TRAINED=has_trained, TRAINED_ID=trained.TRAINED_ID, N_HEAD=trained.N_HEAD)
    if has_trained:  # the trained player's working memory behind the search's
        g.update(trained.offsets(x_size, xf_size, contract.trained_width))
        x_size += trained.x_tail()
        xf_size += trained.xf_tail(contract.trained_width)
    if layout.max_players > MAX_SEATS:
        raise ContractError(
            f"{contract.package}: the standing columns track at most {MAX_SEATS} seats"
        )
    g.update(XM=x_size, XFM=xf_size)  # the standings' accumulator (simcore.frame.standing), last
    x_size += M_SIZE
    xf_size += F_SIZE
    g.update(X_SIZE=x_size, XF_SIZE=xf_size)
    out = types.SimpleNamespace(
        module=module, layout=layout, columns=layout.columns, search=has_search, contract=contract
    )
    gs = g  # the search templates' globals
    if has_search and _inlined(contract.play_turn):
        # the search plays turns in its simulations and its candidates' play: a called copy
        # of the game's turn (compiled once) rather than the turn inlined into each caller
        # (the turn loop keeps its inlined copy; Sunken Treasure's cold compile 144 s -> 117 s)
        turn_fn = contract.play_turn.py_func
        gs = dict(g)
        gs["game_play_turn"] = bound_copy(
            turn_fn, module, turn_fn.__globals__, kernel, name="play_turn_called"
        )
    gs = _bind_trained(contract, g, gs, out)
    for template, compile_ in _TEMPLATES:
        if (
            (template is rounds_begun and "length" in hooks)
            or (template in search.TEMPLATES and not has_search)
            or (template is no_search_turn and has_search)
        ):
            continue
        names = gs if template in search.TEMPLATES else g
        compiled = bound_copy(template, module, names, compile_)
        g[template.__name__] = gs[template.__name__] = compiled
        setattr(out, template.__name__, compiled)
        if template is no_search_turn:
            g["search_turn"] = compiled
        if template is rounds_begun:
            g["game_length"] = compiled
    return out
