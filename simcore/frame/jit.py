"""The compile decorators of the project: every compiled function goes through here.

`kernel`: numba nopython, cached, and compiled without the NRT (numba's reference-counted
memory manager). Every array passed into an NRT-enabled compiled function is increfed and
decrefed with atomic operations, ~10 ns per call even when inlined, which dominated the game
loop (measured; docs/performance.md); `_nrt=False` removes that. A kernel may therefore not
allocate arrays or call functions that do; a view of an argument (a row of a matrix) is fine
inside the kernel, since no reference count is kept for it (Sumeria's players read their
weights as a row view), but it must not outlive the call. If a numba version
rejects the flag, kernels fall back to plain cached njit (slower, same results).

`driver`: numba nopython and cached, with the NRT: the outer functions that allocate (play one
game, play a batch with prange).

The cache. numba's on-disk cache only checks the source file of each cached function, not the
files of the functions it calls or the constants it imports, so a cached caller could run stale
code after a change elsewhere. Each function's cache therefore lives in a directory keyed by a
hash of every source of the frame (simcore/frame, this folder) plus the sources of its own
game package (simcore/games/NAME): a change to one game leaves the other games' caches valid,
and a change to any frame file (the search's templates included) invalidates every game's. A user's
NUMBA_CACHE_DIR is the base of those
directories instead of ~/.cache/balance-numba (each game keeps a directory of its own there too:
the shared driver's templates (simcore.frame.skeleton) are compiled once per game from one source
file, and one directory for all games would mix their entries).
"""

from __future__ import annotations

import functools
import hashlib
import os
import types
from pathlib import Path

import numba
from numba import njit
from numba.core.caching import UserProvidedCacheLocator

_ROOT = Path(__file__).parent
_USER_DIR = bool(os.environ.get("NUMBA_CACHE_DIR"))


@functools.cache
def _hash_files(folder: str) -> str:
    """Hash of the Python sources in a folder and its sub-folders (names and contents)."""
    h = hashlib.sha256()
    base = Path(folder)
    for p in sorted(base.rglob("*.py")):
        if "__pycache__" in p.parts:
            continue
        h.update(str(p.relative_to(base)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


# the base's modules whose values are bound into compiled code (the standing columns, in a file
# of their own so that the analysis's metric definitions in base/metrics.py recompile nothing)
BASE_DEPS = ("base/standing_columns.py",)


@functools.cache
def _hash_file(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def cache_key(module: str, root: Path = _ROOT) -> str:
    """The name of the cache directory of a function defined in `module`: the hash of every
    source of the frame (this folder: jit, search, skeleton, standing, ... all of them, since a
    game's compiled code is built from the frame's templates and kernels) and, for a module of
    a game package (simcore.games.NAME...), NAME and the hash of that package's sources.
    root: the frame's folder (a test hashes a copy)."""
    parts = module.split(".")
    shared = _hash_files(str(root))
    for dep in BASE_DEPS:  # constants of the base that compiled frame code reads
        shared = hashlib.sha256((shared + _hash_file(str(root.parent / dep))).encode()).hexdigest()
        shared = shared[:12]
    games = root.parent / "games"
    if len(parts) >= 4 and parts[1] == "games" and (games / parts[2]).is_dir():
        return f"{parts[2]}-{shared}-{_hash_files(str(games / parts[2]))}"
    return f"shared-{shared}"


def cache_dir_for(module: str) -> str:
    """The numba cache directory of a function defined in `module` (e.g.
    simcore.games.sumeria.play)."""
    if _USER_DIR:
        base = Path(os.environ["NUMBA_CACHE_DIR"])
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "balance-numba"
    return str(base / cache_key(module))


class ProjectCacheLocator(UserProvidedCacheLocator):
    """numba's locator for a user's cache directory, with the sub-folder of a source file named
    by its path inside the project (simcore/frame, simcore/games/pig, ...) instead of a hash of
    its absolute path: every clone of the same code (the cache directory is keyed by the
    sources' hash, cache_key) finds the same compiled code, wherever it lies. numba's source
    stamp is a hash of the file's content (not its time), so a fresh clone is not stale."""

    @classmethod
    def get_suitable_cache_subpath(cls, py_file):
        folder = Path(py_file).resolve().parent
        try:
            return "_".join(folder.relative_to(_ROOT.parent.parent).parts)
        except ValueError:  # a file outside the project: numba's own naming
            return super().get_suitable_cache_subpath(py_file)


_LOCATOR = f"{ProjectCacheLocator.__module__}.{ProjectCacheLocator.__name__}"


def _compile(fn, options):
    old = numba.config.CACHE_DIR, getattr(numba.config, "CACHE_LOCATOR_CLASSES", None)
    numba.config.CACHE_DIR = cache_dir_for(fn.__module__)
    numba.config.CACHE_LOCATOR_CLASSES = _LOCATOR
    try:
        return njit(**options)(fn)  # the cache locator reads CACHE_DIR here
    finally:
        numba.config.CACHE_DIR, numba.config.CACHE_LOCATOR_CLASSES = old


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
        return lambda f: _compile(f, opts)
    return _compile(fn, opts)


def driver(fn=None, **options):
    """@driver or @driver(parallel=True): a cached compiled function that may allocate."""
    opts = {"cache": True, **options}
    if fn is None:
        return lambda f: _compile(f, opts)
    return _compile(fn, opts)


def bound_copy(template, module: str, names: dict, compile_=None, name: str | None = None):
    """A compiled copy of the plain function `template` that belongs to `module` (a game's
    module: its cache directory, simcore.frame.jit), whose global names are `names` (a whole globals
    dict, used as it is, so that copies bound together can call each other). numba's on-disk
    cache does not work for closures over compiled functions (the cache key pickles the
    closure, and a dispatcher pickles differently in every process); a copy with its own
    globals caches like any function of the game. compile_: kernel (default) or a driver
    decorator."""
    fn = types.FunctionType(
        template.__code__,
        names,
        name or template.__name__,
        template.__defaults__,
        template.__closure__,
    )
    fn.__qualname__ = name or template.__qualname__
    fn.__doc__ = template.__doc__
    fn.__module__ = module
    return (compile_ or kernel)(fn)
