"""Where the compiled code of a game spends its time: a sampling profile per compiled function,
taken with Linux `perf` (docs/performance.md, "Reproduce").

    .venv/bin/python tools/perf_profile.py GAME [players] [policy] [games]
    .venv/bin/python tools/perf_profile.py sunken-city 3 balanced 20000

`perf` cannot name code that numba generates at run time, so this script compiles the game
afresh in a temporary cache (numba's cached code carries no function addresses; this takes
a minute or two), writes the addresses of every compiled function to /tmp/perf-<pid>.map (the
file perf reads for JIT code), then plays the games on one thread while `perf record` samples
this process (cpu-clock; no hardware counters needed). It prints each function's share of the
samples that fell in compiled code (self time: a function's callees count for themselves,
except where LLVM inlined them) and the share of the whole process that was compiled code.
Needs `perf` on the PATH and a kernel that lets a user profile their own processes
(kernel.perf_event_paranoid <= 2).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def short_name(symbol: str) -> str:
    """simcore.games.sunken_city.players.routes.plan_route from numba's mangled symbol (prefixes
    such as
    cpython. or __gufunc__. kept as a tag)."""
    tag, _, rest = symbol.partition("_ZN")
    if not rest:
        return symbol
    parts, i = [], 0
    while i < len(rest) and rest[i].isdigit():
        m = re.match(r"\d+", rest[i:])
        n = int(m.group())
        i += len(m.group())
        parts.append(rest[i : i + n])
        i += n
    name = ".".join(parts)
    return f"{tag}{name}" if tag else name


def write_perf_map() -> int:
    """/tmp/perf-<pid>.map: start, size and name of every function numba compiled so far."""
    from numba.core.registry import CPUDispatcher

    syms = set()
    seen = set()
    for mod in list(sys.modules.values()):
        if not getattr(mod, "__name__", "").startswith("simcore"):
            continue
        for obj in list(vars(mod).values()):
            if not isinstance(obj, CPUDispatcher):
                continue
            for cres in obj.overloads.values():
                lib = cres.library
                if id(lib) in seen:
                    continue
                seen.add(id(lib))
                for fn in lib._final_module.functions:
                    if fn.is_declaration:
                        continue
                    try:
                        addr = lib.get_pointer_to_function(fn.name)
                    except Exception:  # not a function of this library's engine
                        continue
                    if addr:
                        syms.add((addr, fn.name))
    ordered = sorted(syms)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for k, (addr, name) in enumerate(ordered):
            size = ordered[k + 1][0] - addr if k + 1 < len(ordered) else 1 << 16
            if 0 < size < 1 << 20:
                f.write(f"{addr:x} {size:x} {short_name(name)}\n")
    return len(ordered)


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    game = sys.argv[1]
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    policy = sys.argv[3] if len(sys.argv) > 3 else None
    games = int(sys.argv[4]) if len(sys.argv) > 4 else 20000
    if shutil.which("perf") is None:
        print("perf is not installed")
        return 2
    if "simcore" in sys.modules:
        print("run this as a script: simcore must be compiled afresh, in a temporary cache")
        return 2
    cache = tempfile.mkdtemp(prefix="perf-profile-")
    os.environ.pop("NUMBA_CACHE_DIR", None)
    os.environ["XDG_CACHE_HOME"] = cache  # before simcore is imported: a fresh compile
    os.environ["NUMBA_NUM_THREADS"] = "1"
    from simcore.frame.registry import get_game
    from simcore.run.runner import simulate

    spec = get_game(game)
    kw = {"policies": policy} if policy else {}
    t = time.time()
    simulate(spec, players, 100, seed=1, threads=1, **kw)  # compiles
    print(f"compiled in {time.time() - t:.0f} s; {write_perf_map()} functions mapped")
    data = os.path.join(cache, "perf.data")
    rec = subprocess.Popen(
        ["perf", "record", "-q", "-e", "cpu-clock", "-p", str(os.getpid()), "-o", data],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)  # let perf attach
    t = time.process_time()
    simulate(spec, players, games, seed=2, threads=1, **kw)
    cpu = time.process_time() - t
    rec.send_signal(signal.SIGINT)
    rec.wait()
    out = subprocess.run(
        ["perf", "report", "-i", data, "--no-children", "--sort", "symbol", "--stdio", "-q"],
        capture_output=True,
        text=True,
    ).stdout
    rows = []
    total = 0.0
    for line in out.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(\S+)", line)
        if m:
            share = float(m.group(1))
            total += share
            if m.group(2).startswith(("simcore.", "cpython.", "cfunc.", "__gufunc__")):
                rows.append((share, m.group(2)))
    jit = sum(s for s, _ in rows)
    by_name: dict[str, list[float]] = {}  # a function compiled for several argument types
    for share, name in rows:
        by_name.setdefault(name, []).append(share)
    print(f"{games / cpu:,.0f} games per CPU-second (one thread, while sampled)")
    print(f"compiled code: {jit:.1f}% of the samples of the process")
    ranked = sorted(by_name.items(), key=lambda kv: -sum(kv[1]))
    for name, shares in ranked[:40]:
        versions = f"  ({len(shares)} versions)" if len(shares) > 1 else ""
        print(f"{100 * sum(shares) / max(jit, 1e-9):5.1f}%  {name}{versions}")
    shutil.rmtree(cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
