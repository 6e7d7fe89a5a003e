"""Checkpoints of long runs: the merged summary of the chunks completed so far (in plan
order), saved atomically as JSON after every chunk, with a fingerprint of the run so that a
resume continues exactly the run that was interrupted and gives the result of an
uninterrupted one (summaries are integer sums)."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import fields
from pathlib import Path

import numpy as np

from simcore.inputs import check_folder_of
from simcore.rulesbase import RulesError

FORMAT = 2  # 2: summaries carry score_width (score bins of any width)


def _summary_to_json(summary) -> dict:
    out = {}
    for f in fields(summary):
        v = getattr(summary, f.name)
        out[f.name] = v.tolist() if isinstance(v, np.ndarray) else v
    return out


def _summary_from_json(data: dict, like):
    kw = {}
    for f in fields(like):
        v = data[f.name]
        ref = getattr(like, f.name)
        kw[f.name] = np.asarray(v, dtype=ref.dtype) if isinstance(ref, np.ndarray) else v
    return type(like)(**kw)


def save_checkpoint(path: str, fingerprint: dict, chunks_done: int, summary) -> None:
    """Write the checkpoint atomically: a temporary file in the same folder, then rename."""
    p = Path(path)
    blob = json.dumps(
        {
            "format": FORMAT,
            "fingerprint": fingerprint,
            "chunks_done": chunks_done,
            "summary": _summary_to_json(summary),
        }
    )
    fd, tmp = tempfile.mkstemp(dir=p.parent if str(p.parent) else ".", prefix=f".{p.name}.")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(blob)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load_checkpoint(path: str, fingerprint: dict, resume: bool, empty_summary):
    """(chunks already done, their merged summary or None) for a run about to start."""
    p = Path(path)
    if not p.exists():
        if resume:
            raise RulesError(f"--resume: checkpoint '{path}' does not exist")
        check_folder_of(path, "--checkpoint")
        return 0, None
    if not resume:
        raise RulesError(
            f"checkpoint '{path}' exists: add --resume to continue that run, or remove the file"
        )
    try:
        data = json.loads(p.read_text())
        if data.get("format") != FORMAT:
            raise ValueError("format")
        if data["fingerprint"] != json.loads(json.dumps(fingerprint)):
            raise RulesError(
                f"checkpoint '{path}' belongs to a different run (game, players, "
                "games, seed, rules, policies or chunking differ)"
            )
        return int(data["chunks_done"]), _summary_from_json(data["summary"], empty_summary)
    except RulesError:
        raise
    except (ValueError, KeyError, TypeError) as e:
        raise RulesError(f"checkpoint '{path}' cannot be read ({e})") from None
