"""Checks of the user's input, written once for every command and API function: game counts,
seeds and game indices, output files and folders, numbers of threads and workers. Each raises
InputError with one line that names the option (the command line prints it and exits with
status 2). The hard limits: at most MAX_GAMES games per command, seeds 0 to MAX_SEED (a
64-bit stream key, used exactly as given), game indices 0 to MAX_INDEX. The ranges of rules
fields and policy weights are declared beside them (simcore.base.rulesbase.in_range,
simcore.frame.registry.WeightRange).
"""

from __future__ import annotations

import math
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from simcore.base.errors import InputError

ROWS_SUFFIXES = (".csv", ".parquet")  # simulate --out
TRACE_SUFFIXES = (".txt", ".jsonl", ".json")  # replay --out
PLOT_SUFFIXES = (".png", ".svg", ".pdf")  # sweep --out
MAX_GAMES = 2**62  # games per command (the game indices stay within the kernels' int64)
MAX_SEED = 2**64 - 1  # seeds: the random stream's 64-bit key
# game indices: the kernels count them in int64 (seat rotation takes the index modulo the
# player count there), so replay reaches exactly the games simulate can play
MAX_INDEX = 2**63 - 1
MAX_ROWS = 10_000_000  # games whose rows are kept in memory (simulate --out, bench)


def parse_count(text: str, what: str = "--games") -> int:
    """'100000', '1e6', '1_000_000' -> a whole number (check_whole checks its range)."""
    t = str(text).strip().replace("_", "")
    if t.isdigit():
        return int(t)
    try:
        v = float(t)
    except ValueError:
        raise InputError(
            f"{what} must be a whole number such as 1000, 1e6 or 1_000_000, not '{text}'"
        ) from None
    if not math.isfinite(v) or not v.is_integer():
        raise InputError(f"{what} must be a whole number, not '{text}'")
    return int(v)


def parse_player_counts(text: str) -> list[int] | None:
    """'2,3,4' -> [2, 3, 4] (whole numbers, no repeats); '' -> None (every count)."""
    if not text:
        return None
    out: list[int] = []
    for part in str(text).split(","):
        part = part.strip()
        if not part.isdigit():
            raise InputError(
                f"--players must be a list of player counts such as 2,3,4, not '{text}'"
            )
        if int(part) in out:
            raise InputError(f"--players lists {part} twice")
        out.append(int(part))
    return out


def check_whole(
    value, what: str, minimum: int = 0, purpose: str = "", maximum: int | None = None
) -> int:
    """A whole number of at least `minimum` and at most `maximum` (bools refused), e.g. a
    seed, a game index or a number of games; purpose is added to the message (' for a
    comparison')."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputError(f"{what} must be a whole number, not {value}")
    if value < minimum:
        bound = "0 or more" if minimum == 0 else f"at least {minimum}"
        raise InputError(f"{what} must be {bound}{purpose}, not {value}")
    if maximum is not None and value > maximum:
        raise InputError(f"{what} must be at most {_power(maximum)}{purpose}, not {value}")
    return int(value)


def _power(n: int) -> str:
    """2**62 and 2**64-1 as such; other numbers with thousands separators."""
    for k in (62, 63, 64):
        if n == 2**k:
            return f"2**{k} ({n:,})"
        if n == 2**k - 1:
            return f"2**{k}-1 ({n:,})"
    return f"{n:,}"


def check_seed(seed) -> int:
    return check_whole(seed, "--seed", maximum=MAX_SEED)


def check_index(index, what: str = "--game") -> int:
    """A game index: 0 to MAX_INDEX, used as given (never reduced modulo 2**64)."""
    return check_whole(index, what, maximum=MAX_INDEX)


def check_games(games, minimum: int = 1, purpose: str = "") -> int:
    return check_whole(games, "--games", minimum, purpose, maximum=MAX_GAMES)


def check_rows(games: int, what: str) -> int:
    """A number of games whose every row is held in memory: at most MAX_ROWS."""
    if games > MAX_ROWS:
        raise InputError(
            f"{what} keeps every game's row in memory: at most {MAX_ROWS:,} games, not {games:,}"
        )
    return games


def check_folder_of(path: str, what: str = "--out") -> None:
    """A file can be written at `path`: it is not a folder and its folder exists and takes a
    new file (tried: a temporary file is created and removed, which also refuses /proc and
    /sys, where permission bits say nothing)."""
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise InputError(f"{what} '{path}' is a directory; give a file name")
    if not parent.is_dir():
        above = next((a for a in (parent, *parent.parents) if a.exists()), parent)
        if above.exists() and not above.is_dir():  # a regular file on the way
            raise InputError(f"{what} '{path}': '{above}' is a file, not a folder")
        raise InputError(f"{what} '{path}': folder '{parent}' does not exist")
    if p.exists() and not os.access(p, os.W_OK):
        raise InputError(f"{what} '{path}' is not writable")
    _try_write_in(parent, f"{what} '{path}'")


def _try_write_in(folder: Path, what: str) -> None:
    """Create and remove a temporary file in `folder`; InputError '<what>: cannot write ...'."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".balance-write-test.")
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise InputError(f"{what}: cannot write in folder '{folder}' ({_why(e)})") from None


def _why(e: OSError) -> str:
    return e.strerror or type(e).__name__


def umask_mode() -> int:
    """The mode a new file gets under the process's umask (0666 & ~umask)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: str | Path, write: Callable[[str], Any], what: str = "--out") -> None:
    """Write a file via a temporary file in the same folder, then rename: never a partial
    file. The file gets the umask's mode (not mkstemp's 0600); a failure is one InputError
    line naming the option, and the temporary file is removed."""
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{p.name}.", suffix=p.suffix)
        os.close(fd)
        write(tmp)
        os.chmod(tmp, stat.S_IMODE(umask_mode()))
        os.replace(tmp, p)
        tmp = None
    except OSError as e:
        raise InputError(f"{what} '{path}' could not be written ({_why(e)})") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def check_out_path(path: str | None, suffixes: tuple[str, ...], what: str = "--out") -> Path | None:
    """An output file (None when not asked) of the option `what`: not a folder, one of the
    suffixes, in a writable folder; a .parquet file needs pyarrow."""
    if path is None:
        return None
    p = Path(path)
    if p.is_dir():
        raise InputError(f"{what} '{path}' is a directory; give a file name")
    if p.suffix.lower() not in suffixes:
        raise InputError(f"{what} '{path}' must end in {' or '.join(suffixes)}")
    check_folder_of(path, what)
    if p.suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise InputError(
                "--out .parquet needs pyarrow (pip install pyarrow); use .csv instead"
            ) from None
    return p


def check_out_folder(path: str) -> Path:
    """An output folder: refused when it is a file or when it (or, when it does not exist
    yet, the nearest folder above it, where it will be created) cannot be written."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise InputError(f"--out '{path}' is a file; give a folder")
    base = p
    while not base.exists() and base != base.parent:
        base = base.parent
    if base.exists() and not base.is_dir():
        raise InputError(f"--out '{path}': '{base}' is a file, not a folder")
    _try_write_in(base, f"--out '{path}'")
    return p
