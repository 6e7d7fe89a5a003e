"""How many cycles a call of each named compiled function takes, callees included: an
inclusive profile by the CPU's cycle counter (docs/performance.md, "Reproduce").

    .venv/bin/python tools/cycle_profile.py GAME PLAYERS POLICY GAMES FUNC[,FUNC...]
    .venv/bin/python tools/cycle_profile.py sunken-city 3 balanced 3000 \\
        heuristic_turn,choose_card,heuristic_build,heuristic_move,heuristic_spirit

perf_profile.py gives each function's own (self) time; this gives the time of a call with
everything it calls, which is what tells the phases of a turn apart. The first function named
is the reference: every line is given per call of it (per turn, when it is the turn function)
and as a share of its cycles.

It copies simcore/ to a temporary folder, finds the module of the game's package that defines
each named function (any simcore/games/<game>/**/*.py: the engine modules, players/, ...) and
rewrites the function there as `_NAME_raw`, with a wrapper under the old name right after it
that reads the cycle counter (llvm.readcyclecounter: rdtsc on x86) before and after the call
and adds the difference and 1 to two int64 counters, whose address is written into the copy's
source. The module's own later uses of the name and every module that imports it get the
wrapper. The copy is compiled afresh in a temporary cache (a minute or two) and the games are
played on one thread. Reading the counter costs some cycles per call (the `empty` line prints
what a wrapped call of nothing costs), and a wrapped function cannot be inlined by LLVM into
its caller any more, so the figures are a little above those of the unchanged code; the games
and every decision are the same.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUNTIME = """

# --- cycle_profile.py: counters -------------------------------------------------------
from llvmlite import ir as _cp_ir  # noqa: E402
from numba import types as _cp_types  # noqa: E402
from numba.core import cgutils as _cp_cg  # noqa: E402
from numba.core.extending import intrinsic as _cp_intrinsic  # noqa: E402


@_cp_intrinsic
def _cp_cycles(typingctx):
    def codegen(context, builder, sig, args):
        fnty = _cp_ir.FunctionType(_cp_ir.IntType(64), [])
        fn = _cp_cg.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])

    return _cp_types.int64(), codegen


@_cp_intrinsic
def _cp_add(typingctx, slot, value):
    def codegen(context, builder, sig, args):
        i64 = _cp_ir.IntType(64)
        base = builder.inttoptr(_cp_ir.Constant(i64, {address}), i64.as_pointer())
        p = builder.gep(base, [args[0]])
        builder.store(builder.add(builder.load(p), args[1]), p)
        return context.get_dummy_value()

    return _cp_types.none(slot, value), codegen
"""

WRAPPER = """

@kernel
def {name}({params}):
    _cp_t0 = _cp_cycles()
    _cp_res = _{name}_raw({args})
    _cp_add({slot}, _cp_cycles() - _cp_t0)
    _cp_add({slot1}, 1)
    return _cp_res
"""


EXTRA = """

@kernel
def _cp_empty(x):
    return x


@kernel
def _cp_now():
    return _cp_cycles()
"""


def call_args(params: str) -> str:
    """'s, r, seat, w=1.0' -> 's, r, seat, w': the parameters passed on by the wrapper."""
    names = []
    for p in params.replace("\n", " ").split(","):
        p = p.strip()
        if p:
            names.append(p.split("=")[0].split(":")[0].strip())
    return ", ".join(names)


def function_end(source: str, def_line: int) -> int:
    """The offset just after the last line of the top-level function whose `def` is on line
    `def_line` (1-based) of `source`."""
    node = next(
        n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.lineno == def_line
    )
    lines = source.splitlines(keepends=True)
    return sum(len(line) for line in lines[: node.end_lineno])


def wrap(source: str, name: str, index: int, address: int) -> str | None:
    """The module source with function `name` (a plain @kernel) renamed `_name_raw`, a
    counting wrapper under its name right after it (counters 2 * index and 2 * index + 1 at
    `address`), and the counters' definitions at the end; None when the module does not
    define `name` as a @kernel. The wrapper follows the function at once, so that whatever
    the module itself does with the name further down (a driver bound over it, a table of
    functions) gets the wrapper."""
    m = re.search(rf"^@kernel\ndef {re.escape(name)}\((.*?)\):", source, re.M | re.S)
    if m is None:
        return None
    params = m.group(1)
    end = function_end(source, source.count("\n", 0, m.start()) + 2)
    wrapper = WRAPPER.format(
        name=name, params=params, args=call_args(params), slot=2 * index, slot1=2 * index + 1
    )
    out = source[: m.start()] + f"@kernel\ndef _{name}_raw({params}):" + source[m.end() : end]
    out += wrapper + source[end:]
    if "def _cp_cycles(" not in out:
        out += RUNTIME.replace("{address}", str(address))
    return out


def modules(package_dir: Path) -> list[Path]:
    """The modules of a game package, its sub-packages' included, in a fixed order."""
    return sorted(package_dir.rglob("*.py"))


def find_definitions(package_dir: Path, funcs: list[str]) -> dict[str, Path]:
    """The module of the package that defines each of `funcs` as a plain @kernel. Exits with
    a message when a function is defined in no module (or only with inline="always") or as
    a @kernel in more than one (its callers would not all reach the one wrapped)."""
    found: dict[str, list[Path]] = {f: [] for f in funcs}
    for path in modules(package_dir):
        text = path.read_text()
        for f in funcs:
            if re.search(rf"^@kernel\ndef {re.escape(f)}\(", text, re.M):
                found[f].append(path)
    missing = sorted(f for f, paths in found.items() if not paths)
    where = package_dir.relative_to(package_dir.parents[1])
    if missing:
        raise SystemExit(
            f"no @kernel function named {', '.join(missing)} in {where} "
            '(one compiled with inline="always" cannot be wrapped: it would not be inlined)'
        )
    several = {f: paths for f, paths in found.items() if len(paths) > 1}
    if several:
        f, paths = next(iter(several.items()))
        names = ", ".join(str(p.relative_to(package_dir)) for p in paths)
        raise SystemExit(f"{f} is defined in several modules of {where}: {names}")
    return {f: paths[0] for f, paths in found.items()}


def patch_tree(
    src: Path, dst: Path, package: str, funcs: list[str], address: int
) -> dict[str, Path]:
    """Copy src/simcore to dst/simcore and wrap each of `funcs` (counters 2 * i and 2 * i + 1
    for funcs[i]) in the module of the game package that defines it. Returns each function's
    module in the copy."""
    shutil.copytree(src / "simcore", dst / "simcore", ignore=shutil.ignore_patterns("__pycache__"))
    where = find_definitions(dst / "simcore" / "games" / package, funcs)
    for path in sorted(set(where.values())):
        text = path.read_text()
        for i, f in enumerate(funcs):
            if where[f] == path:
                text = wrap(text, f, i, address)
        path.write_text(text)
    return where


def module_name(root: Path, path: Path) -> str:
    """simcore.games.sunken_city.players.turn for root/simcore/games/sunken_city/players/turn.py."""
    return ".".join(path.relative_to(root).with_suffix("").parts)


def main() -> int:
    if len(sys.argv) < 6:
        print(__doc__)
        return 2
    game, players, policy, games = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    funcs = [f for f in sys.argv[5].split(",") if f] + ["_cp_empty"]
    if "simcore" in sys.modules:
        print("run this as a script: the copy of simcore must be compiled afresh")
        return 2
    import numpy as np

    counts = np.zeros(2 * len(funcs), dtype=np.int64)
    package = game.replace("-", "_")
    tmp = Path(tempfile.mkdtemp(prefix="cycle-profile-"))
    try:
        where = patch_tree(ROOT, tmp, package, funcs[:-1], counts.ctypes.data)
        # a counted call of nothing (what the counting itself costs) and the counter itself,
        # in the module of the reference function
        home = where[funcs[0]]
        text = home.read_text() + EXTRA
        home.write_text(wrap(text, "_cp_empty", len(funcs) - 1, counts.ctypes.data))
        os.environ.pop("NUMBA_CACHE_DIR", None)
        os.environ["XDG_CACHE_HOME"] = str(tmp / "cache")  # a fresh compile of the copy
        os.environ["NUMBA_NUM_THREADS"] = "1"
        sys.path.insert(0, str(tmp))
        import importlib

        from simcore.frame.registry import get_game
        from simcore.run.runner import simulate

        mod = importlib.import_module(module_name(tmp, home))
        spec = get_game(game)
        t = time.time()
        simulate(spec, players, 50, policies=policy, seed=1, threads=1)  # compiles
        for _ in range(1000):
            mod._cp_empty(1)
        print(f"compiled in {time.time() - t:.0f} s")
        t0, k0 = time.perf_counter(), mod._cp_now()
        time.sleep(0.3)
        hz = (mod._cp_now() - k0) / (time.perf_counter() - t0)
        counts[:] = 0
        for _ in range(100000):
            mod._cp_empty(1)
        empty = counts[-2] / max(counts[-1], 1)
        counts[:] = 0
        t = time.process_time()
        simulate(spec, players, games, policies=policy, seed=2, threads=1)
        cpu = time.process_time() - t
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    ref_cycles, ref_calls = counts[0], max(counts[1], 1)
    print(f"{games / cpu:,.0f} games per CPU-second (one thread, counters on)")
    print(f"cycle counter: {hz / 1e9:.2f} GHz; a counted call of nothing: {empty:.0f} cycles")
    head = f"{'function':24s} {'calls/ref':>10s} {'cycles/call':>12s} {'cycles/ref':>11s}"
    print(f"{head} {'ns/ref':>8s} {'share':>6s}")
    for i, f in enumerate(funcs[:-1]):
        cyc, n = counts[2 * i], counts[2 * i + 1]
        per_ref = cyc / ref_calls
        print(
            f"{f:24s} {n / ref_calls:10.2f} {cyc / max(n, 1):12,.0f} {per_ref:11,.0f} "
            f"{per_ref / hz * 1e9:8,.0f} {100 * cyc / max(ref_cycles, 1):5.1f}%"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
