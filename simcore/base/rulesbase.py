"""What every game's rules share: errors, named variants, ``--set`` parsing, variant files, hash.

A game's rules are a frozen dataclass. Variants are functions of a rules object and compose
with '+'. Overrides ``key=value`` are parsed against the field's declared type, so a bad key or a
bad value is one clear sentence (RulesError), never a traceback.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import tomllib
import typing
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from simcore.base.errors import RulesError  # noqa: F401 - re-exported

# the words of a per-seat points compensation (a field `seat_points` of several games)
POINTS_WORDS = "scores {n} point{s} more at the end"


class RulesBase:
    """What every game's rules (a frozen dataclass) share: the player-count check, the checks
    of the fields declared with `in_range` or `one_of`, the game's other field checks
    (`check`), the rules as plain data (`resolved`, for JSON, the hash and provenance) and the
    start of their packing (`packed`). A game names itself and its seat range in its class
    line, ``class XRules(RulesBase, game="x", players=(2, 4))`` (GAME, MIN_PLAYERS and
    MAX_PLAYERS), and writes `check`; it extends `resolved_extra` when a field's value depends
    on the player count."""

    GAME: ClassVar[str] = ""
    MIN_PLAYERS: ClassVar[int] = 1
    MAX_PLAYERS: ClassVar[int] = 4
    # the designer's additions (seat compensation, issue #38; not the publisher's rules): left
    # out of `resolved` (the trace header, the hash) while at their defaults, so that a game
    # without them keeps its rules hash and traces; shown as soon as one is set
    ADDITIONS: ClassVar[tuple[str, ...]] = ()
    # the additions that give each seat its own amount (tuples, seat 0 first): compensation;
    # SEAT_SEARCH: the largest amount `balance compensate` gives a seat by default; SEAT_WORDS:
    # what a rulebook prints, '{n}' the amount, '{s}' 's' when it is not 1; after a '|', what
    # is said once after the seats
    SEAT_FIELDS: ClassVar[tuple[str, ...]] = ()
    SEAT_SEARCH: ClassVar[dict[str, int]] = {}
    SEAT_WORDS: ClassVar[dict[str, str]] = {}
    # SEAT_RANKS: the seat fields of which only the order of the seats' amounts counts (a tie
    # rank): `balance compensate` tries one amount vector an order (0,2,2 is 0,1,1)
    SEAT_RANKS: ClassVar[tuple[str, ...]] = ()
    # END_RULES: the designer's alternatives to the rulebook's end of the game that `balance
    # compensate --field NAME` tries, alone and with each seat field's amounts: field -> (the
    # value that changes the rule, the rule in the words a rulebook prints)
    END_RULES: ClassVar[dict[str, tuple[str, str]]] = {}

    def __init_subclass__(cls, game: str = "", players: tuple[int, int] = (1, 4), **kw) -> None:
        super().__init_subclass__(**kw)
        cls.GAME = game
        cls.MIN_PLAYERS, cls.MAX_PLAYERS = players

    def validate(self, players: int | None = None) -> None:
        """Raise RulesError with one clear sentence when the player count or a field is out of
        range (players None: the fields only)."""
        if players is not None and not self.MIN_PLAYERS <= players <= self.MAX_PLAYERS:
            raise RulesError(
                f"{self.GAME} is for {self.MIN_PLAYERS} to {self.MAX_PLAYERS} players, "
                f"not {players}"
            )
        self.check_fields()
        self.check_seat_fields(players)
        self.check(players)

    def check_fields(self) -> None:
        """The declared checks of each field (in_range, one_of), which hold whatever the
        player count and the other fields: RulesError with one sentence."""
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            check_declared(f, getattr(self, f.name))

    def check(self, players: int | None) -> None:
        """The game's own field checks (RulesError); players None: those that do not depend
        on the player count."""

    def packed(self, players: int, size: int) -> np.ndarray:
        """Validate the rules for a player count; the game's flat kernel array of `size`
        zeros, but for the player count at offset 0 (P_PLAYERS in every game)."""
        self.validate(players)
        r = np.zeros(size, dtype=np.int64)
        r[0] = players
        return r

    def resolved(self, players: int) -> dict:
        """The rules as plain data (tuples as lists), with what depends on the player count
        resolved (resolved_extra)."""
        d = {k: _plain(v) for k, v in dataclasses.asdict(self).items()}  # type: ignore[call-overload]
        defaults = {f.name: f.default for f in dataclasses.fields(self)}  # type: ignore[arg-type]
        for name in self.ADDITIONS:
            if getattr(self, name) == defaults[name]:
                del d[name]
        d.update(self.resolved_extra(players))
        return d

    def seat_values(self, name: str, players: int) -> tuple[int, ...]:
        """A per-seat field (SEAT_FIELDS) for this player count: one amount per seat, the
        seats it does not name 0."""
        v = tuple(getattr(self, name))
        return (v + (0,) * players)[:players]

    def check_seat_fields(self, players: int | None) -> None:
        """Each per-seat field names at most MAX_PLAYERS seats, and none beyond the player
        count with an amount (RulesError naming the field)."""
        for name in self.SEAT_FIELDS:
            v = tuple(getattr(self, name))
            if len(v) > self.MAX_PLAYERS:
                raise RulesError(
                    f"{name} gives {len(v)} seats, the game has at most {self.MAX_PLAYERS}"
                )
            if players is not None and any(v[players:]):
                raise RulesError(
                    f"{name} gives seat {players + next(i for i, x in enumerate(v[players:]) if x)}"
                    f" an amount, but the game has {players} players (seats 0 to {players - 1})"
                )

    def resolved_extra(self, players: int) -> dict:
        """Fields of `resolved` that depend on the player count (none by default)."""
        return {}


INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1  # what the packed rules array (int64) holds


def in_range(default: Any, lo: int, hi: int) -> Any:
    """A whole-number rules field whose value must be lo to hi, or a tuple (of tuples) of whole
    numbers each of which must be lo to hi: RulesBase.validate says "NAME must be LO to HI"
    (or "each value of NAME ...") for any other. lo and hi lie within int64 (the packed
    array)."""
    assert INT64_MIN <= lo <= hi <= INT64_MAX
    return dataclasses.field(default=default, metadata={"range": (lo, hi)})


def _whole_numbers(value: Any):
    """The whole numbers of a value, flattening tuples and lists."""
    if isinstance(value, (tuple, list)):
        for v in value:
            yield from _whole_numbers(v)
    elif isinstance(value, int) and not isinstance(value, bool):
        yield value


def check_declared(f: dataclasses.Field, value: Any) -> None:
    """A field's declared range (in_range) or choices (one_of); every whole number, declared
    or not, must fit the packed int64 array."""
    if "range" in f.metadata:
        lo, hi = f.metadata["range"]
        if isinstance(value, (tuple, list)):
            if any(not lo <= v <= hi for v in _whole_numbers(value)):
                raise RulesError(f"each value of {f.name} must be {lo} to {hi}")
        elif not lo <= value <= hi:
            raise RulesError(f"{f.name} must be {lo} to {hi}")
    if "choices" in f.metadata and value not in f.metadata["choices"]:
        raise RulesError(f"{f.name} must be one of {', '.join(f.metadata['choices'])}")
    if any(not INT64_MIN <= v <= INT64_MAX for v in _whole_numbers(value)):
        raise RulesError(f"{f.name}: a value is too large (the engine holds 64-bit numbers)")


def one_of(default: str, names: tuple[str, ...]) -> Any:
    """A rules field that must be one of the given names: RulesBase.validate says "NAME must
    be one of A, B" for any other."""
    return dataclasses.field(default=default, metadata={"choices": names})


def _plain(v: Any) -> Any:
    return [_plain(x) for x in v] if isinstance(v, (tuple, list)) else v


class VariantRegistry:
    """Named variants of one game: name -> (function of a rules object, one-line description)."""

    def __init__(self) -> None:
        self.items: dict[str, tuple[Callable[[Any], Any], str]] = {}
        # the component readings among the variants: name -> the reconstruction it replaces
        # (a GAME-DATA.md section) and its source or reasoning (docs/component-readings.md)
        self.readings: dict[str, tuple[str, str]] = {}

    def register(self, name: str, description: str):
        def deco(fn):
            self.items[name] = (fn, description)
            return fn

        return deco

    def add(self, name: str, description: str, **changes: Any) -> None:
        """Register a variant that sets the given fields (none: the rules as they are)."""

        def variant(rules):
            return dataclasses.replace(rules, **changes) if changes else rules

        self.items[name] = (variant, description)

    def add_reading(
        self, name: str, description: str, replaces: str, source: str, **changes: Any
    ) -> None:
        """Register a component reading: a variant giving another plausible value of a
        reconstructed component (`replaces`: the reconstruction, as GAME-DATA.md names it;
        `source`: where the alternative comes from or why it is plausible). Selected like
        any variant; `balance robustness` runs every reading as a component setting."""
        self.add(name, description, **changes)
        self.readings[name] = (replaces, source)

    def names(self) -> list[str]:
        return list(self.items)

    def describe(self) -> dict[str, str]:
        return {k: d for k, (_, d) in self.items.items()}


def variant_registry(base: str) -> VariantRegistry:
    """A game's registry, holding its "base" variant (the rules unchanged) described as
    `base`."""
    registry = VariantRegistry()
    registry.add("base", base)
    return registry


def split_variants(variants: Iterable[str]) -> list[str]:
    """'short+no-chips' and repeated options -> a flat list of names."""
    out: list[str] = []
    for v in variants:
        out.extend(p.strip() for p in v.split("+") if p.strip())
    return out


def _field_types(cls) -> dict[str, Any]:
    """Each field's type (a copy: the caller may change it)."""
    return dict(_class_field_types(cls))


@functools.cache
def _class_field_types(cls) -> dict[str, Any]:
    """The field types of a rules class, evaluated once: typing.get_type_hints evaluates every
    annotation string again at each call (about a millisecond for a rules class; a report's
    compensation searches resolve rules thousands of times)."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def field_docs(cls) -> dict[str, str]:
    """One-line description of each rules field, taken from the docstring after the field."""
    import ast
    import inspect
    import textwrap

    src = textwrap.dedent(inspect.getsource(cls))
    tree = ast.parse(src)
    docs: dict[str, str] = {}
    body = tree.body[0].body  # type: ignore[attr-defined]
    for a, b in zip(body, body[1:]):
        if isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name):
            if isinstance(b, ast.Expr) and isinstance(getattr(b, "value", None), ast.Constant):
                docs[a.target.id] = " ".join(str(b.value.value).split())
    return docs


def _parse_int(key: str, text: str) -> int:
    """'12', '-3', '1e3', '1_000' -> a whole number (digits are read exactly, never through a
    float)."""
    t = text.strip().replace("_", "")
    if t.lstrip("+-").isdigit():
        if len(t) > 30:
            raise RulesError(f"{key}: '{text}' is far too large")
        return int(t)
    try:
        f = float(t)
    except ValueError:
        raise RulesError(f"{key}: '{text}' is not a whole number") from None
    if not f.is_integer():
        raise RulesError(f"{key}: '{text}' is not a whole number")
    if abs(f) > INT64_MAX:
        raise RulesError(f"{key}: '{text}' is too large (the engine holds 64-bit numbers)")
    return int(f)


def _parse_bool(key: str, text: str) -> bool:
    t = text.strip().lower()
    if t in ("1", "true", "yes", "on"):
        return True
    if t in ("0", "false", "no", "off"):
        return False
    raise RulesError(f"{key}: '{text}' is not true or false")


def parse_value(key: str, tp: Any, value: Any, named: dict[str, Any] | None = None) -> Any:
    """Convert a string (from --set) or a TOML value to the field's type."""
    named = named or {}
    origin = typing.get_origin(tp)
    if isinstance(value, str) and value.strip() in named:
        return named[value.strip()]
    if tp is bool:
        if isinstance(value, bool):
            return value
        return _parse_bool(key, str(value))
    if tp is int:
        if isinstance(value, bool):
            raise RulesError(f"{key}: expected a whole number, got {value!r}")
        if isinstance(value, int):
            return value
        return _parse_int(key, str(value))
    if tp is str:
        if not isinstance(value, str):
            raise RulesError(f"{key}: expected text, got {value!r}")
        return value
    if origin is tuple:
        args = typing.get_args(tp)
        if isinstance(value, str):
            text = value.strip()
            if text == "":
                items: list[Any] = []
            elif args and typing.get_origin(args[0]) is tuple:
                items = [p.split("/") for p in text.split(",")]
            else:
                items = text.split(",")
        elif isinstance(value, (list, tuple)):
            items = list(value)
        else:
            raise RulesError(f"{key}: expected a list, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            if isinstance(value, str) and not items:
                raise RulesError(f"{key}: give at least one value")
            try:
                return tuple(parse_value(key, args[0], v) for v in items)
            except RulesError:
                if named:
                    raise RulesError(
                        f"{key}: '{value}' is neither a name ({', '.join(named)}) nor a list "
                        "of whole numbers"
                    ) from None
                raise
        if len(items) != len(args):
            raise RulesError(f"{key}: expected {len(args)} values, got {len(items)}")
        return tuple(parse_value(key, a, v) for a, v in zip(args, items))
    raise RulesError(f"{key}: cannot parse {value!r}")


def apply_overrides(rules: Any, overrides: dict[str, Any], named: dict | None = None) -> Any:
    """Return rules with fields replaced; unknown keys and bad values raise RulesError."""
    types = _field_types(type(rules))
    named = named or {}
    changes = {}
    for key, value in overrides.items():
        if key not in types:
            raise RulesError(f"unknown rules key '{key}' (known: {', '.join(sorted(types))})")
        changes[key] = parse_value(key, types[key], value, named.get(key))
    return dataclasses.replace(rules, **changes)


def parse_set_options(items: Iterable[str]) -> dict[str, str]:
    """['die=0,1,1', 'chips=false'] -> {'die': '0,1,1', 'chips': 'false'}."""
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise RulesError(f"--set expects key=value, got '{item}'")
        k, v = item.split("=", 1)
        if not k.strip():
            raise RulesError(f"--set expects key=value, got '{item}'")
        out[k.strip()] = v.strip()
    return out


MAX_RULES_FILE = 1_000_000  # bytes: a rules file is a few tables of fields


READING_KEYS = ("replaces", "source")  # the texts a [reading.NAME] table adds to its fields


def _read_rules_toml(path: str | Path) -> dict[str, Any]:
    """A rules file's TOML data; RulesError with one sentence when it cannot be read."""
    p = Path(path)
    try:
        if p.is_dir():
            raise RulesError(f"rules file '{path}' is a directory")
        if p.exists() and p.stat().st_size > MAX_RULES_FILE:
            raise RulesError(f"rules file '{path}' is larger than {MAX_RULES_FILE:,} bytes")
        return tomllib.loads(p.read_text())
    except FileNotFoundError:
        raise RulesError(f"rules file '{path}' does not exist") from None
    except (OSError, UnicodeDecodeError) as e:
        why = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
        raise RulesError(f"rules file '{path}' cannot be read ({why})") from None
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"rules file '{path}' is not valid TOML: {e}") from None
    except RecursionError:
        raise RulesError(f"rules file '{path}' is nested too deeply to be a rules file") from None


def load_rules_file(
    path: str | Path,
    rules_cls: type,
    builtin: Iterable[str] = (),
    named: dict[str, Any] | None = None,
) -> tuple[dict[str, dict[str, Any]], dict[str, tuple[str, str]]]:
    """Read a TOML file of ``[variant.NAME]`` and ``[reading.NAME]`` tables of rules fields;
    a reading (a designer's own component reading, docs/component-readings.md) may also give
    the texts `replaces` (the reconstruction it replaces) and `source` (its source or
    reasoning). Every table is checked at once, used or not: known keys, values of the field's
    type and within its declared range (in_range, one_of); a name of a built-in variant
    (`builtin`) or a name used twice is refused. Returns (name -> its fields, for variants and
    readings alike; reading name -> (replaces, source))."""
    data = _read_rules_toml(path)
    extra = set(data) - {"variant", "reading"}
    if extra:
        raise RulesError(
            f"rules file '{path}': unknown top-level key(s) {sorted(extra)}; "
            "use [variant.NAME] or [reading.NAME] tables"
        )
    groups = {kind: data.get(kind, {}) for kind in ("variant", "reading")}
    if any(not isinstance(g, dict) for g in groups.values()) or not any(groups.values()):
        raise RulesError(f"rules file '{path}' defines no [variant.NAME] or [reading.NAME] table")
    types = _field_types(rules_cls)
    tables: dict[str, dict[str, Any]] = {}
    readings: dict[str, tuple[str, str]] = {}
    for kind, group in groups.items():
        for name, table in group.items():
            where = f"rules file '{path}': {kind} '{name}'"
            if not isinstance(table, dict):
                raise RulesError(f"{where} must be a table")
            if name in builtin:
                raise RulesError(f"{where} is a built-in variant's name; give yours another name")
            if name in tables:
                raise RulesError(f"{where} is defined twice (as a variant and as a reading)")
            fields = dict(table)
            if kind == "reading":
                meta = {k: fields.pop(k, "") for k in READING_KEYS}
                if any(not isinstance(v, str) for v in meta.values()):
                    raise RulesError(f"{where}: replaces and source must be text")
                readings[name] = (
                    meta["replaces"] or "the designer's reading",
                    meta["source"] or f"rules file {path}",
                )
            for k in fields:
                if k not in types:
                    raise RulesError(f"{where} has unknown key '{k}'")
            try:
                apply_overrides(rules_cls(), fields, named).check_fields()
            except RulesError as e:
                raise RulesError(f"{where}: {e}") from None
            tables[name] = fields
    return tables, readings


def load_variant_file(
    path: str | Path,
    rules_cls: type,
    builtin: Iterable[str] = (),
    named: dict[str, Any] | None = None,
) -> dict[str, dict[str, Any]]:
    """The rules file's variants and readings by name, each as its fields (load_rules_file)."""
    return load_rules_file(path, rules_cls, builtin, named)[0]


def rules_hash(resolved: dict) -> str:
    """A short stable hash of the resolved rules (for provenance)."""
    blob = json.dumps(resolved, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
