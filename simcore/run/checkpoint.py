"""Checkpoints of long runs: the merged summary of the chunks completed so far (in plan
order), saved atomically as JSON after every chunk, with a fingerprint of the run so that a
resume continues exactly the run that was interrupted and gives the result of an
uninterrupted one (summaries are integer sums).

A checkpoint is validated as a whole before a resume (load_checkpoint): a JSON object of the
known keys, this format, the fingerprint of this run (game, players, games, seed, rules,
policies, chunking: the command's setting), chunks_done within the plan, and a summary of
exactly the shape and types of the run's own (whole numbers of 0 or more, arrays of the
right length, the game count that chunks_done implies). Anything else is refused with one
line and the file is left as it is.
"""

from __future__ import annotations

import json
import os
from dataclasses import fields
from pathlib import Path

import numpy as np

from simcore.base.inputs import check_folder_of, write_atomic
from simcore.base.rulesbase import RulesError

FORMAT = 3  # 2: summaries carry score_width (score bins of any width); 3: the feel sums
KEYS = {"format", "fingerprint", "chunks_done", "summary"}
INT64_MAX = 2**63 - 1


def _summary_to_json(summary) -> dict:
    out = {}
    for f in fields(summary):
        v = getattr(summary, f.name)
        out[f.name] = v.tolist() if isinstance(v, np.ndarray) else v
    return out


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= INT64_MAX


def _nested_whole(v, shape: tuple[int, ...]) -> bool:
    """v is a nested list of the given shape holding whole numbers 0 .. int64 max."""
    if not shape:
        return _whole(v)
    return (
        isinstance(v, list) and len(v) == shape[0] and all(_nested_whole(x, shape[1:]) for x in v)
    )


def _summary_from_json(data, like):
    """The summary of a checkpoint, checked field by field against `like` (the run's own
    empty summary): RulesError naming the first field that does not fit."""
    if not isinstance(data, dict):
        raise RulesError("its summary is not an object")
    names = [f.name for f in fields(like)]
    missing = [n for n in names if n not in data]
    if missing or set(data) - set(names):
        raise RulesError(
            f"its summary has the wrong fields ({', '.join(missing) or 'unknown ones'})"
        )
    kw = {}
    for name in names:
        v, ref = data[name], getattr(like, name)
        if isinstance(ref, np.ndarray):
            # sums of squares may be negative only through overflow: refused too
            if not _nested_whole(v, ref.shape):
                raise RulesError(
                    f"its summary's {name} is not {ref.shape} whole numbers of 0 or more"
                )
            kw[name] = np.asarray(v, dtype=ref.dtype).reshape(ref.shape)
        elif isinstance(ref, list) or isinstance(ref, str):
            if v != ref:
                raise RulesError(f"its summary's {name} does not match this run")
            kw[name] = v
        elif name in ("players", "n_policies", "n_end_reasons", "n_feel"):
            if v != ref:
                raise RulesError(f"its summary's {name} does not match this run")
            kw[name] = v
        else:
            if not _whole(v):
                raise RulesError(f"its summary's {name} is not a whole number of 0 or more")
            kw[name] = v
    return type(like)(**kw)


def save_checkpoint(path: str, fingerprint: dict, chunks_done: int, summary) -> None:
    """Write the checkpoint atomically: a temporary file in the same folder, then rename."""
    blob = json.dumps(
        {
            "format": FORMAT,
            "fingerprint": fingerprint,
            "chunks_done": chunks_done,
            "summary": _summary_to_json(summary),
        }
    )

    def write(tmp: str) -> None:
        with open(tmp, "w") as fh:
            fh.write(blob)
            fh.flush()
            os.fsync(fh.fileno())

    write_atomic(path, write, "--checkpoint")


def load_checkpoint(path: str, fingerprint: dict, resume: bool, empty_summary, plan=None):
    """(chunks already done, their merged summary or None) for a run about to start; plan:
    the run's chunks (first index, games), to check chunks_done and the game count against."""
    p = Path(path)
    if p.is_dir():
        raise RulesError(f"--checkpoint '{path}' is a directory; give a file name")
    if not p.exists():
        if resume:
            raise RulesError(f"--resume: checkpoint '{path}' does not exist")
        check_folder_of(path, "--checkpoint")
        return 0, None
    if not resume:
        raise RulesError(
            f"checkpoint '{path}' exists: add --resume to continue that run, or remove the file"
        )
    check_folder_of(path, "--checkpoint")  # it is rewritten after every chunk
    try:
        data = json.loads(p.read_text())
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        why = e.strerror if isinstance(e, OSError) else "not valid JSON"
        raise RulesError(f"checkpoint '{path}' cannot be read ({why})") from None
    try:
        done, summary = _check(data, fingerprint, empty_summary, plan)
    except RulesError as e:
        raise RulesError(f"checkpoint '{path}' is refused: {e}") from None
    return done, summary


def _check(data, fingerprint: dict, empty_summary, plan):
    """(chunks_done, summary) of a parsed checkpoint, or RulesError saying what is wrong."""
    if not isinstance(data, dict):
        raise RulesError(f"it is a JSON {type(data).__name__}, not an object")
    if set(data) != KEYS:
        raise RulesError(f"it must hold exactly the keys {', '.join(sorted(KEYS))}")
    if data["format"] != FORMAT:
        raise RulesError(f"its format is {data['format']!r}, not {FORMAT}")
    if data["fingerprint"] != json.loads(json.dumps(fingerprint)):
        raise RulesError(
            "it belongs to a different run (command, game, players, games, seed, rules, "
            "policies or chunking differ)"
        )
    done = data["chunks_done"]
    n_chunks = len(plan) if plan is not None else None
    if not _whole(done) or (n_chunks is not None and done > n_chunks):
        bound = f"0 to {n_chunks}" if n_chunks is not None else "0 or more"
        raise RulesError(f"chunks_done must be a whole number {bound}, not {done!r}")
    summary = _summary_from_json(data["summary"], empty_summary)
    if plan is not None:
        expected = plan.games_in(done)
        if summary.games != expected:
            raise RulesError(
                f"its summary counts {summary.games} games, but {done} chunks hold {expected}"
            )
    return done, summary
