"""Checkpoints of long runs, one format for every command that has them (`simulate`,
`robustness`): a JSON object of `format`, `fingerprint` (the command and its setting) and the
command's own parts, rewritten atomically (a temporary file in the same folder, fsync, rename)
as the run goes, so that a resume continues exactly the run that was interrupted and gives the
result of an uninterrupted one (summaries are integer sums).

CheckpointFile is the file of one run: the refusals before a run (a folder, a missing file
with --resume, an existing file without it, a file that is not JSON, not this kind of
checkpoint, of another format or of another run), all InputError of one line naming the
file, which is left as it is; `start` gives the saved parts, `save` rewrites them. A kind
(CheckpointKind) says which parts the file holds, its format number and what differs when
the fingerprint does not match.

`simulate`'s checkpoint (SIMULATE) holds `chunks_done` and `summary`, the merged summary of
the chunks completed so far in plan order, checked as a whole (sim_parts): chunks_done within
the plan, a summary of exactly the shape and types of the run's own (whole numbers of 0 or
more, arrays of the right length, the game count that chunks_done implies).
summary_to_json/summary_from_json are the one JSON form of a Summary (robustness keeps one
per arm of each finished setting).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import fields
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from simcore.base.errors import InputError
from simcore.base.inputs import check_folder_of, write_atomic

INT64_MAX = 2**63 - 1


class CheckpointKind(NamedTuple):
    """What a command's checkpoint holds: its name (in the refusals), its format number (a
    file of another format is refused), the parts beside format and fingerprint, and the
    words of the refusal of another run's file ('... differ')."""

    name: str
    format: int
    parts: tuple[str, ...]
    differ: str

    @property
    def keys(self) -> set[str]:
        return {"format", "fingerprint", *self.parts}


# 2: summaries carry score_width (score bins of any width); 3: the feel sums
SIMULATE = CheckpointKind(
    "simulate",
    3,
    ("chunks_done", "summary"),
    "command, game, players, games, seed, rules, policies or chunking",
)


def check_resume(path: str | None, resume: bool) -> None:
    """--resume without --checkpoint is refused (before anything else is resolved)."""
    if resume and not path:
        raise InputError("--resume needs --checkpoint FILE")


class CheckpointFile:
    """The checkpoint file of one run (path None: no checkpoint; save does nothing)."""

    def __init__(self, path: str | None, fingerprint: dict, kind: CheckpointKind):
        self.path, self.fingerprint, self.kind = path, fingerprint, kind

    def start(self, resume: bool) -> dict[str, Any] | None:
        """The saved parts of the run to continue ({part: value}), or None for a new run;
        InputError (one line, the file untouched) for every refusal. The parts themselves
        are the command's to check, inside `checking()`."""
        check_resume(self.path, resume)
        if not self.path:
            return None
        path, p = self.path, Path(self.path)
        if p.is_dir():
            raise InputError(f"--checkpoint '{path}' is a directory; give a file name")
        if not p.exists():
            if resume:
                raise InputError(f"--resume: checkpoint '{path}' does not exist")
            check_folder_of(path, "--checkpoint")
            return None
        if not resume:
            raise InputError(
                f"checkpoint '{path}' exists: add --resume to continue that run, or remove the file"
            )
        check_folder_of(path, "--checkpoint")  # it is rewritten as the run goes
        try:
            data = json.loads(p.read_text())
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
            why = e.strerror if isinstance(e, OSError) else "not valid JSON"
            raise InputError(f"checkpoint '{path}' cannot be read ({why})") from None
        with self.checking():
            self._check(data)
        return {k: data[k] for k in self.kind.parts}

    def restore_each(self, resume: bool, part: str, jobs: list, key, what: str):
        """A run of independent jobs (robustness' settings, the ladder's matches) saved as one
        object `part` of {job key: the job's saved state}: start the file (`start`) and
        restore every job whose key(job) it holds (job.restore(state)). Returns (the saved
        object, the keys restored); InputError (the file refused) when the part is not an
        object or a state cannot be restored. what: the part in words ('settings')."""
        saved = (self.start(resume) or {part: {}})[part]
        restored = []
        with self.checking():
            if not isinstance(saved, dict):
                raise InputError(f"its {what} are not an object")
            for job in jobs:
                if key(job) in saved:
                    job.restore(saved[key(job)])
                    restored.append(key(job))
        return saved, restored

    def _check(self, data: Any) -> None:
        kind = self.kind
        if not isinstance(data, dict):
            raise InputError(f"it is a JSON {type(data).__name__}, not an object")
        if set(data) != kind.keys:
            raise InputError(
                f"it is not a {kind.name} checkpoint (it must hold exactly the keys "
                f"{', '.join(sorted(kind.keys))})"
            )
        if data["format"] != kind.format:
            raise InputError(f"its format is {data['format']!r}, not {kind.format}")
        if data["fingerprint"] != json.loads(json.dumps(self.fingerprint)):
            raise InputError(f"it belongs to a different run ({kind.differ} differ)")

    @contextmanager
    def checking(self) -> Iterator[None]:
        """An InputError raised inside ('its summary ...') becomes the refusal of the file:
        "checkpoint 'FILE' is refused: its summary ..."."""
        try:
            yield
        except InputError as e:
            raise InputError(f"checkpoint '{self.path}' is refused: {e}") from None

    def save(self, **parts: Any) -> None:
        """Rewrite the file atomically with these parts (every part of the kind)."""
        if not self.path:
            return
        assert set(parts) == set(self.kind.parts), parts
        blob = json.dumps({"format": self.kind.format, "fingerprint": self.fingerprint, **parts})

        def write(tmp: str) -> None:
            with open(tmp, "w") as fh:
                fh.write(blob)
                fh.flush()
                os.fsync(fh.fileno())

        write_atomic(self.path, write, "--checkpoint")


# --------------------------------------------------------------------------------- summaries
class JobStates:
    """The checkpoint of a run of independent jobs (robustness' settings, the ladder's
    matches): one part, {key(job): the job's saved state}. Made before the jobs, which are
    handed `save` (called as each finishes); opened once they exist (`open`), since the
    file's fingerprint is theirs."""

    def __init__(self, kind: CheckpointKind, key: Callable[[Any], str]):
        self.kind, self.key, self.part = kind, key, kind.parts[0]
        self.file = CheckpointFile(None, {}, kind)  # no file until `open`
        self.saved: dict[str, Any] = {}

    def open(self, path: str | None, fingerprint: dict, resume: bool, jobs: list) -> list[str]:
        """Start the file (CheckpointFile.restore_each: every job it holds restored; InputError
        when it is refused) and return the keys of the jobs restored."""
        self.file = CheckpointFile(path, fingerprint, self.kind)
        found, restored = self.file.restore_each(resume, self.part, jobs, self.key, self.part)
        self.saved = {k: found[k] for k in restored}
        return restored

    def save(self, job: Any) -> None:
        """Job finished: its state saved under its key, the file rewritten."""
        self.saved[self.key(job)] = job.state_json()
        self.file.save(**{self.part: self.saved})


def whole(v: Any) -> bool:
    """v is a whole number 0 .. int64 max (not a bool)."""
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= INT64_MAX


def _nested_whole(v: Any, shape: tuple[int, ...]) -> bool:
    """v is a nested list of the given shape holding whole numbers 0 .. int64 max."""
    if not shape:
        return whole(v)
    return (
        isinstance(v, list) and len(v) == shape[0] and all(_nested_whole(x, shape[1:]) for x in v)
    )


def summary_to_json(summary: Any) -> dict:
    """A Summary (simcore.run.chunks) as plain JSON data: field -> number, text or lists."""
    out = {}
    for f in fields(summary):
        v = getattr(summary, f.name)
        out[f.name] = v.tolist() if isinstance(v, np.ndarray) else v
    return out


def summary_from_json(data: Any, like: Any) -> Any:
    """The Summary of summary_to_json's data, checked field by field against `like` (the run's
    own empty summary): InputError naming the first field that does not fit."""
    if not isinstance(data, dict):
        raise InputError("its summary is not an object")
    names = [f.name for f in fields(like)]
    missing = [n for n in names if n not in data]
    if missing or set(data) - set(names):
        raise InputError(
            f"its summary has the wrong fields ({', '.join(missing) or 'unknown ones'})"
        )
    kw = {}
    for name in names:
        v, ref = data[name], getattr(like, name)
        if isinstance(ref, np.ndarray):
            # sums of squares may be negative only through overflow: refused too
            if not _nested_whole(v, ref.shape):
                raise InputError(
                    f"its summary's {name} is not {ref.shape} whole numbers of 0 or more"
                )
            kw[name] = np.asarray(v, dtype=ref.dtype).reshape(ref.shape)
        elif isinstance(ref, (list, str)) or name in (
            "players",
            "n_policies",
            "n_end_reasons",
            "n_feel",
        ):
            if v != ref:
                raise InputError(f"its summary's {name} does not match this run")
            kw[name] = v
        else:
            if not whole(v):
                raise InputError(f"its summary's {name} is not a whole number of 0 or more")
            kw[name] = v
    return type(like)(**kw)


# --------------------------------------------------------------------------------- simulate
def sim_parts(chunks_done: int, summary: Any) -> dict[str, Any]:
    """The parts of simulate's checkpoint after `chunks_done` chunks merged into `summary`."""
    return {"chunks_done": chunks_done, "summary": summary_to_json(summary)}


def sim_state(parts: dict[str, Any], empty_summary: Any, plan: Any = None) -> tuple[int, Any]:
    """(chunks_done, summary) of simulate's saved parts, or InputError saying what is wrong;
    plan: the run's chunks (first index, games), to check chunks_done and the game count."""
    done = parts["chunks_done"]
    n_chunks = len(plan) if plan is not None else None
    if not whole(done) or (n_chunks is not None and done > n_chunks):
        bound = f"0 to {n_chunks}" if n_chunks is not None else "0 or more"
        raise InputError(f"chunks_done must be a whole number {bound}, not {done!r}")
    summary = summary_from_json(parts["summary"], empty_summary)
    if plan is not None:
        expected = plan.games_in(done)
        if summary.games != expected:
            raise InputError(
                f"its summary counts {summary.games} games, but {done} chunks hold {expected}"
            )
    return done, summary
