"""A trained player's model file (docs/trained-players.md): numpy's .npz of a few named arrays,
and beside a shipped model its provenance (.json) with the file's sha256.

The arrays: `format` (1, or 2 for a model with an `activation`), `game` (the game's name),
`players` (the player count it was trained for), `width` (features per candidate, the game's
trained_width), `hidden` (hidden units, 0: a linear score), `model`
(float64[model_size(width, hidden)], the layout of simcore.frame.trained.model_logit) and, in
format 2 only, `activation` (the hidden units' function, ACTIVATIONS; a format-1 file's units
are tanh, so every model written before keeps its bytes). Loading checks every one and
refuses a file with one InputError line naming it: a missing or unreadable file, another
format, another game, a width the game's features do not have, a model of the wrong size or
with values that are not finite, an activation not in ACTIVATIONS.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simcore.base.errors import InputError
from simcore.base.inputs import write_atomic

FORMAT = 2  # the newest format written; 1 (no `activation`: tanh units) is read too
FORMATS = (1, 2)
# the hidden units' functions, by their code in the kernel (simcore.frame.trained.unit):
# tanh, and softsign a / (1 + |a|) (docs/trained-players.md, "The units")
ACTIVATIONS = ("tanh", "softsign")


def activation_code(name: str) -> int:
    """The kernel's code of an activation (its place in ACTIVATIONS; 0: tanh)."""
    return ACTIVATIONS.index(name)


WEIGHTS_HEAD = 3  # Model.weights' values before the model's own: width, hidden, activation
MODELS = "models"  # the folder of a game package's shipped models


def model_size(width: int, hidden: int) -> int:
    """The values of a model of `width` features and `hidden` tanh units (0: linear)."""
    if hidden == 0:
        return width + 1
    return hidden * width + 2 * hidden + 1


@dataclass(frozen=True)
class Model:
    """A loaded model: its game, player count, feature width, hidden units and values."""

    game: str
    players: int
    width: int
    hidden: int
    values: np.ndarray  # float64[model_size(width, hidden)]
    path: str = ""
    activation: str = "tanh"  # ACTIVATIONS

    def weights(self) -> tuple[float, ...]:
        """The model as a `trained` seat's weights: WEIGHTS_HEAD values (width, hidden units,
        the activation's code in ACTIVATIONS), then the values (simcore.frame.trained.fill_row)."""
        act = float(activation_code(self.activation))
        return (float(self.width), float(self.hidden), act, *np.asarray(self.values).tolist())


def shipped_path(package_dir: str | Path, players: int) -> Path:
    """The model shipped beside a game's package for a player count."""
    return Path(package_dir) / MODELS / f"trained-{players}p.npz"


def sha256_of(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def model_bytes(model: Model) -> bytes:
    """The .npz bytes of a model (no timestamps: the same model gives the same bytes); a tanh
    model in format 1, as every model was written before activations could be chosen."""
    tanh = model.activation == ACTIVATIONS[0]
    arrays = {
        "format": np.array(1 if tanh else FORMAT, dtype=np.int64),
        "game": np.array(model.game),
        "players": np.array(model.players, dtype=np.int64),
        "width": np.array(model.width, dtype=np.int64),
        "hidden": np.array(model.hidden, dtype=np.int64),
        "model": np.asarray(model.values, dtype=np.float64),
    }
    if not tanh:
        arrays["activation"] = np.array(model.activation)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, arr in arrays.items():
            one = io.BytesIO()
            np.lib.format.write_array(one, arr, allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, one.getvalue())
    return buf.getvalue()


def save_model(model: Model, path: str | Path, provenance: dict[str, Any] | None = None) -> str:
    """Write the model (atomically) and, with `provenance`, its .json beside it (the
    provenance and the model file's sha256). Returns the sha256."""
    blob = model_bytes(model)
    digest = hashlib.sha256(blob).hexdigest()

    def write(tmp: str) -> None:
        Path(tmp).write_bytes(blob)

    write_atomic(path, write, "--out")
    if provenance is not None:
        text = json.dumps(provenance | {"sha256": digest}, indent=2) + "\n"
        write_atomic(Path(path).with_suffix(".json"), lambda t: Path(t).write_text(text), "--out")
    return digest


def load_model(path: str | Path, game: str, width: int) -> Model:
    """The model in `path` for `game`, whose candidates have `width` features: InputError (one
    line naming the file) for every refusal (the module's docstring). A file read once is not
    read again while its size and modification time stay the same (a study prepares hundreds
    of plays of one model); each call returns its own copy of the values."""
    where = f"model '{path}'"
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{where} does not exist" if not p.exists() else f"{where} is not a file")
    st = p.stat()
    m = _read_model(str(path), st.st_mtime_ns, st.st_size, game, width)
    return Model(m.game, m.players, m.width, m.hidden, m.values.copy(), m.path, m.activation)


@functools.lru_cache(maxsize=64)
def _read_model(path: str, mtime_ns: int, size: int, game: str, width: int) -> Model:
    """load_model's reading and checks of one version of a file (mtime_ns, size: its key)."""
    where = f"model '{path}'"
    p = Path(path)
    try:
        with np.load(p, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise InputError(f"{where} is not a model file ({type(e).__name__})") from None
    need = ("format", "game", "players", "width", "hidden", "model")
    missing = [k for k in need if k not in data]
    if missing:
        raise InputError(f"{where} is not a model file (no {', '.join(missing)})")
    try:
        fmt, players = int(data["format"]), int(data["players"])
        w, h, its = int(data["width"]), int(data["hidden"]), str(data["game"])
        values = np.asarray(data["model"], dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise InputError(f"{where} is not a model file (a field of the wrong type)") from None
    if fmt not in FORMATS:
        raise InputError(f"{where} has format {fmt}, not one of {', '.join(map(str, FORMATS))}")
    if fmt >= 2 and "activation" not in data:
        raise InputError(f"{where} is not a model file (no activation)")
    act = str(data["activation"]) if fmt >= 2 else ACTIVATIONS[0]  # format 1: tanh units
    if act not in ACTIVATIONS:
        raise InputError(f"{where} has activation '{act}', not one of {', '.join(ACTIVATIONS)}")
    if its != game:
        raise InputError(f"{where} is a model for {its}, not {game}")
    if w != width:
        raise InputError(f"{where} has {w} features a candidate, {game}'s have {width}")
    if h < 0 or values.size != model_size(w, h):
        raise InputError(f"{where} holds {values.size} values, not a model of {h} hidden units")
    if not np.isfinite(values).all():
        raise InputError(f"{where} holds values that are not finite")
    return Model(its, players, w, h, values.copy(), str(p), act)
