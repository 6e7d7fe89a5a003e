"""The registry of games and what each game tells the runner: its rules class, variants,
policies, seat range, result columns and compiled entry points.
"""

from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from simcore.base.errors import ContractError
from simcore.base.rulesbase import (
    RulesError,
    VariantRegistry,
    apply_overrides,
    field_docs,
    load_rules_file,
    load_variant_file,
    rules_hash,
    split_variants,
)
from simcore.base.trained_model import load_model, shipped_path
from simcore.frame import search, trained


@dataclass(frozen=True)
class PolicySpec:
    """A compiled player: its id in the game's kernels and its named weights (defaults)."""

    name: str
    id: int
    description: str
    weights: dict[str, float] = field(default_factory=dict)
    base: str = ""  # a `search` player's base player (simcore.frame.search)
    file: str = ""  # the preset file it was loaded from (simcore.base.presetfile), if any
    file_weights: tuple[str, ...] = ()  # the weights that file sets


@dataclass(frozen=True)
class WeightRange:
    """The values a policy weight may take: lo to hi, whole numbers only when `whole`
    (declared beside the game's weights, GameSpec.weight_ranges)."""

    lo: float
    hi: float
    whole: bool = False

    def problem(self, value: float) -> str | None:
        """What is wrong with `value` ('must be ...'), or None when it is allowed."""
        kind = "a whole number" if self.whole else "a number"
        if (
            not math.isfinite(value)
            or not self.lo <= value <= self.hi
            or (self.whole and not float(value).is_integer())
        ):
            return f"must be {kind} from {_num(self.lo)} to {_num(self.hi)}"
        return None


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else str(v)


@dataclass(frozen=True)
class SeatPolicy:
    """One entry of a policy list: the policy and its full weight vector."""

    spec: PolicySpec
    weights: tuple[float, ...]
    label: str  # as the user wrote it, e.g. "balanced:greed=2"
    user: tuple[tuple[str, float], ...] = ()  # the weights the user set, which always win
    # a search over `trained` (search:base=trained): the model its base plays, as a trained
    # seat's weights (width, hidden units, values)
    model: tuple[float, ...] = ()


@dataclass(frozen=True)
class GameSpec:
    """What a game tells the runner. The seat range, the named variants (VARIANTS) and the
    packing (pack) come from its rules class (RulesBase) and the module that defines it; the
    trace decoding from its `trace` module's format (simcore.frame.replay.TraceFormat), and
    through it the driver (the result columns and the batch kernel: its `play` module's
    simcore.frame.skeleton.bind_driver) and the end reasons (END_REASONS of its `state`
    module). The fields left out are taken from there."""

    title: str
    rules_cls: type  # a RulesBase dataclass
    policies: dict[str, PolicySpec]
    name: str = ""  # the game's name (default: its rules class's, RulesBase's game=)
    default_policy: str = ""  # the player when none is named (default: the first of policies)
    driver: Any = None  # the game's simcore.frame.skeleton driver (default: trace.driver)
    # field -> {name: value} (default: the rules module's NAMED_VALUES, if any)
    named_values: dict[str, dict[str, Any]] = field(default_factory=dict)
    max_weights: int = 8
    report_variants: tuple[str, ...] = ("base",)  # the variants a default report compares
    # (rules, policy name) -> weights that replace the preset's under these rules (a preset
    # tuned separately for a rules mode, e.g. Sunken City's advanced game); None: no change
    rules_weights: Callable[[Any, str], dict[str, float]] | None = None
    policy_note: str = ""  # one line on rules-dependent weights, shown by `balance games`
    # weight name -> its valid values (every weight of every policy declares one)
    weight_ranges: dict[str, WeightRange] = field(default_factory=dict)
    # the `search` player's defaults where the game's differ from simcore.frame.search.PARAMS'
    # (e.g. a larger budget where simulations are cheap and decisions many)
    search_defaults: dict[str, float] = field(default_factory=dict)
    # the game's declaration beside its driver's contract (simcore.frame.contract): the
    # variants and the packing of its rules module (default: its VARIANTS and pack), the end
    # reasons of its state (default: the trace's state's END_REASONS), the trace format of
    # its trace module (simcore.frame.replay.TraceFormat)
    variants: VariantRegistry | None = None
    pack: Callable[[Any, int], np.ndarray] | None = None
    end_reasons: tuple[str, ...] = ()
    trace: Any = None
    # why the game has no `search` player, when it has none (shown when a user asks for it)
    no_search: str = ""
    # a reference game (a small game with published exact answers that check the analyser
    # end to end): the published answers' source; listed apart by `balance games`
    reference: str = ""

    def __post_init__(self) -> None:
        _complete_declaration(self)
        _check_declaration(self)
        if getattr(self.driver, "search", False) and "search" not in self.policies:
            base = self.policies[self.default_policy]
            entry = PolicySpec(
                "search",
                search.SEARCH_ID,
                f"Monte Carlo evaluation of candidate turns, completed and simulated by the base "
                f"player (default {base.name}); weights budget, horizon, lead, z, start, stop, "
                "base=NAME and the base player's own",
                _search_weights(base, self.search_defaults),
                base.name,
            )
            object.__setattr__(self, "policies", {**self.policies, "search": entry})
            clash = set(search.PARAMS) & set(self.weight_ranges)
            assert not clash, f"{self.name}: a player's weight is named like the search's {clash}"
            ranges = {
                k: WeightRange(lo, hi, whole) for k, (_, lo, hi, whole, _) in search.PARAMS.items()
            }
            object.__setattr__(self, "weight_ranges", {**self.weight_ranges, **ranges})
        if getattr(self.driver, "trained_names", None) and "trained" not in self.policies:
            entry = PolicySpec(
                "trained", trained.TRAINED_ID, trained.DESCRIPTION, {}, self.default_policy
            )
            object.__setattr__(self, "policies", {**self.policies, "trained": entry})

    @property
    def presets(self) -> list[str]:
        """The names of the game's players other than `search` (the players a search
        simulates with, and the report's lineups)."""
        own = (search.SEARCH_ID, trained.TRAINED_ID)
        return [n for n, p in self.policies.items() if p.id not in own]

    @property
    def weights_width(self) -> int:
        """Columns of the weight matrix: the widest player's weights, then the search's."""
        has_search = "search" in self.policies
        return self.max_weights + (search.N_PARAMS if has_search else 0)

    @property
    def min_players(self) -> int:
        return self.rules_cls.MIN_PLAYERS

    @property
    def max_players(self) -> int:
        return self.rules_cls.MAX_PLAYERS

    @property
    def columns(self) -> list[str]:
        return self.driver.columns

    @property
    def game_counters(self) -> list[str]:
        """The per-game counter columns."""
        return self.driver.layout.game_counter_names

    @property
    def seat_counters(self) -> list[str]:
        """The per-seat counters (columns name_<seat>)."""
        return self.driver.layout.seat_counter_names

    @property
    def play_batch(self) -> Callable[..., None]:
        return self.driver.play_batch

    # ------------------------------------------------------------------ rules
    def nearest_players(self, players: int) -> int:
        """The player count nearest to `players` that the game allows."""
        return min(max(players, self.min_players), self.max_players)

    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"{self.name} is for {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )

    def resolve_rules(
        self,
        variants: list[str] | tuple[str, ...] = (),
        overrides: dict[str, Any] | None = None,
        rules_file: str | None = None,
        players: int | None = None,
    ):
        """Default rules, then each variant in order (built-in or from the rules file), then
        the overrides; validated for the player count."""
        rules = self.rules_cls()
        file_variants = (
            load_variant_file(rules_file, self.rules_cls, self.variants.names(), self.named_values)
            if rules_file
            else {}
        )
        for name in split_variants(variants):
            if name in file_variants:
                rules = apply_overrides(rules, file_variants[name], self.named_values)
            elif name in self.variants.items:
                rules = self.variants.items[name][0](rules)
            else:
                known = self.variants.names() + sorted(file_variants)
                raise RulesError(
                    f"unknown variant '{name}' for {self.name} (known: {', '.join(known)})"
                )
        if overrides:
            rules = apply_overrides(rules, overrides, self.named_values)
        rules.validate(players)
        return rules

    def readings(self, rules_file: str | None = None) -> dict[str, tuple[str, str]]:
        """The component readings, name -> (the reconstruction it replaces, its source or
        reasoning): the game's own (VARIANTS.add_reading), then the ``[reading.NAME]`` tables of
        a rules file (each selected like a variant, by name)."""
        own = dict(self.variants.readings)
        if not rules_file:
            return own
        _, mine = load_rules_file(
            rules_file, self.rules_cls, self.variants.names(), self.named_values
        )
        return own | mine

    def rules_fields(self) -> list[dict[str, Any]]:
        """Each rules field with its default and one-line description."""
        import dataclasses

        docs = field_docs(self.rules_cls)
        default = self.rules_cls()
        out = []
        for f in dataclasses.fields(self.rules_cls):
            out.append(
                {
                    "key": f.name,
                    "default": getattr(default, f.name),
                    "description": docs.get(f.name, ""),
                }
            )
        return out

    def resolved(self, rules, players: int) -> dict:
        return rules.resolved(players)

    def rules_hash(self, rules, players: int) -> str:
        return rules_hash(self.resolved(rules, players))

    def replay(
        self,
        rules: Any,
        players: int,
        seats: list[SeatPolicy],
        seed: int,
        index: int,
        *,
        rotate: bool = False,
        checked: bool = True,
        version: str = "",
    ):
        """Play game `index` of `seed` with its trace on: a simcore.frame.replay.GameTrace (its
        .jsonl() and .text())."""
        from simcore.frame.replay import replay

        fmt = self.trace
        return replay(
            fmt,
            self.name,
            self.pack,
            rules,
            players,
            seats,
            seed,
            index,
            rotate=rotate,
            checked=checked,
            version=version,
            policy_arrays=self.policy_arrays(self.resolve_seats(seats, rules)),
        )

    # ------------------------------------------------------------------ policies
    def parse_policies(
        self, text: str | None, players: int, option: str = "--policy"
    ) -> list[SeatPolicy]:
        """'balanced,greedy,random' or 'balanced:greed=2,caution=0.5,random' -> one entry per
        seat (a single entry is used for every seat); option: the option that gave the text
        (named in the refusals)."""
        text = (text or self.default_policy).strip()
        entries = [_player_entry(player, text) for player in split_players(text)]
        if len(entries) == 1:
            entries = entries * players
        if len(entries) != players:
            raise RulesError(f"{option} gives {len(entries)} players for a {players}-player game")
        out = []
        for name, weights in entries:
            if "@" in name:  # NAME@FILE: a preset file, loaded here
                name = self.add_preset_file(name.split("@", 1)[1], name.split("@", 1)[0])
            if name == "search" and "search" not in self.policies and self.no_search:
                raise RulesError(self.no_search)
            if name == "trained" and "trained" in self.policies:
                out.append(self._trained_seat(weights, players))
                continue
            if name == "search" and "search" in self.policies:
                out.append(self._search_seat(weights, players))
                continue
            spec = self.policies.get(name)
            if spec is None:
                raise RulesError(
                    f"unknown policy '{name}' for {self.name} (known: {', '.join(self.policies)})"
                )
            vec = dict(spec.weights)
            for k, v in weights.items():
                if k not in vec:
                    known = ", ".join(vec) or "none"
                    raise RulesError(f"policy '{name}' has no weight '{k}' (weights: {known})")
                try:
                    vec[k] = float(v)
                except ValueError:
                    raise RulesError(f"weight {name}:{k} must be a number, got '{v}'") from None
                wrong = self.weight_range(k).problem(vec[k])
                if wrong:
                    raise RulesError(f"weight {name}:{k} {wrong}, got '{v}'")
            label = name + (
                ":" + ",".join(f"{k}={v}" for k, v in weights.items()) if weights else ""
            )
            # a preset file's weights win over the rules mode's (rules_weights) like the user's
            user = tuple((k, vec[k]) for k in (*spec.file_weights, *weights))
            out.append(SeatPolicy(spec, tuple(vec.values()), label, user))
        return out

    def add_preset_file(self, path: str, name: str | None = None) -> str:
        """Load a preset file (simcore.base.presetfile) and add it to this game's players for the
        rest of the process (a `balance games` run lists it); its name is returned. name: the
        name the user wrote before '@', which must be the file's. The file must be for this
        game, name one of its compiled players (not `random`-like players without weights, nor
        `search`), and give only that player's weights, each within its declared range; a
        name already taken by a built-in player, or by another file, is refused."""
        from simcore.base.presetfile import read_preset_file

        pf = read_preset_file(path)
        where = f"--policy-file '{path}'"
        if name is not None and name != pf.name:
            raise RulesError(f"{where} holds the preset '{pf.name}', not '{name}'")
        if pf.game != self.name:
            raise RulesError(f"{where} is for {pf.game}, not {self.name}")
        base = self.policies.get(pf.policy)
        if base is None or base.id == search.SEARCH_ID or base.file or not base.weights:
            known = ", ".join(n for n in self.presets if self.policies[n].weights)
            raise RulesError(f"{where}: policy '{pf.policy}' is not one of {known}")
        for k, v in pf.weights.items():
            if k not in base.weights:
                raise RulesError(
                    f"{where}: {pf.policy} has no weight '{k}' (weights: {', '.join(base.weights)})"
                )
            wrong = self.weight_range(k).problem(v)
            if wrong:
                raise RulesError(f"{where}: weight {k} {wrong}, got {v:g}")
        old = self.policies.get(pf.name)
        if old is not None and not (old.file and Path(old.file).resolve() == Path(path).resolve()):
            raise RulesError(f"{where}: the name '{pf.name}' is taken by another player")
        spec = PolicySpec(
            pf.name,
            base.id,
            pf.description or f"{pf.policy} with the weights of {Path(path).name}",
            dict(base.weights) | pf.weights,
            file=str(path),
            file_weights=tuple(pf.weights),
        )
        object.__setattr__(self, "policies", {**self.policies, pf.name: spec})
        return pf.name

    def weight_range(self, name: str) -> WeightRange:
        """The declared range of a weight (any finite number when a game declares none)."""
        return self.weight_ranges.get(name, WeightRange(-math.inf, math.inf))

    def resolve_seats(self, seats: list[SeatPolicy], rules: Any) -> list[SeatPolicy]:
        """The weight vectors in effect under these rules: the preset's weights, replaced by
        the game's weights for this rules mode (rules_weights), then the user's own."""
        if self.rules_weights is None:
            return seats
        out = []
        for p in seats:
            if p.spec.id == trained.TRAINED_ID:  # a model, not weights
                out.append(p)
                continue
            vec = dict(p.spec.weights)
            for k, v in self.rules_weights(rules, p.spec.base or p.spec.name).items():
                if k in vec:
                    vec[k] = float(v)
            vec.update(dict(p.user))
            out.append(replace(p, weights=tuple(vec.values())))
        return out

    def _shown_weights(self, p: PolicySpec) -> dict[str, Any]:
        """A player's weights as `balance games` lists them (a search's: its own, and its
        base player by name)."""
        if p.id != search.SEARCH_ID:
            return dict(p.weights)
        return {k: p.weights[k] for k in search.PARAMS} | {"base": p.base}

    def _search_seat(self, user: dict[str, str], players: int) -> SeatPolicy:
        """A `search` seat from the weights the user wrote: base=NAME picks the base player
        (default: the game's default player), whose own weights may be set too; over
        `trained` (base=trained), model=PATH picks the model (default: the shipped one)."""
        base_name = user.get("base", self.policies["search"].base)
        base = self.policies.get(base_name)
        if base is None or base.id == search.SEARCH_ID:
            raise RulesError(
                f"search:base must be one of {', '.join(self.presets)}, not '{base_name}'"
            )
        model = None
        if base.id == trained.TRAINED_ID:
            model = self._trained_model(user.get("model"), players)
        elif "model" in user:
            raise RulesError("search:model goes with search:base=trained")
        base_w = dict(base.weights)
        params: dict[str, float] = {}
        set_: list[tuple[str, float]] = []
        for k, v in user.items():
            if k in ("base", "model"):
                continue
            try:
                f = float(v)
            except ValueError:
                raise RulesError(f"weight search:{k} must be a number, got '{v}'") from None
            if k in search.PARAMS or (k in base_w and k in self.weight_ranges):
                wrong = self.weight_range(k).problem(f)
                if wrong:
                    raise RulesError(f"weight search:{k} {wrong}, got '{v}'")
                if k in search.PARAMS:
                    params[k] = f
                else:
                    base_w[k] = f
            else:
                known = ", ".join(["base", *search.PARAMS, *base.weights])
                raise RulesError(f"policy 'search' has no weight '{k}' (weights: {known})")
            set_.append((k, f))
        base_spec = PolicySpec(base.name, base.id, base.description, base_w)
        vec = _search_weights(base_spec, self.search_defaults | params)
        spec = PolicySpec(
            "search",
            search.SEARCH_ID,
            self.policies["search"].description,
            vec,
            base.name,
            file=model.path if model else "",
        )
        label = "search" + (":" + ",".join(f"{k}={v}" for k, v in user.items()) if user else "")
        weights = model.weights() if model else ()
        return SeatPolicy(spec, tuple(vec.values()), label, tuple(set_), weights)

    def _shipped_model(self, players: int) -> Path:
        """Where the `trained` model for this player count is shipped (beside the game's
        package), whether or not it is there."""
        package = sys.modules[self.driver.contract.package].__file__
        return shipped_path(Path(package).parent, players)

    def has_model(self, players: int) -> bool:
        """Whether a `trained` model is shipped for this player count."""
        return "trained" in self.policies and self._shipped_model(players).is_file()

    def _trained_model(self, path: str | None, players: int):
        """The model of a `trained` player: the file `path`, or the one shipped beside the
        game's package for the player count (simcore.base.trained_model; a bad file is one
        InputError line)."""
        if not self.min_players <= players <= self.max_players:  # one entry parsed alone
            players = self.nearest_players(players)
        if not path and not self.has_model(players):
            raise RulesError(
                f"{self.name} has no trained model for {players} players (train one with "
                f"`balance train {self.name} --players {players}`, play it with "
                "--policy trained:model=PATH)"
            )
        shipped = self._shipped_model(players)
        return load_model(path or shipped, self.name, self.driver.contract.trained_width)

    def _trained_seat(self, user: dict[str, str], players: int) -> SeatPolicy:
        """A `trained` seat: the model shipped beside the game's package for the player count,
        or model=PATH (simcore.base.trained_model; a bad file is one InputError line)."""
        for k in user:
            if k != "model":
                raise RulesError(f"policy 'trained' has no weight '{k}' (weights: model)")
        m = self._trained_model(user.get("model"), players)
        own = self.policies["trained"]
        spec = PolicySpec(own.name, own.id, own.description, {}, own.base, file=m.path)
        label = "trained" + (f":model={user['model']}" if "model" in user else "")
        return SeatPolicy(spec, m.weights(), label)

    def policy_arrays(self, seats: list[SeatPolicy]) -> tuple[np.ndarray, np.ndarray]:
        ids = np.array([p.spec.id for p in seats], dtype=np.int64)
        models = [p.weights if p.spec.id == trained.TRAINED_ID else p.model for p in seats]
        width = self.weights_width + trained.extra_width([m for m in models if m])
        w = np.zeros((len(seats), width), dtype=np.float64)
        for i, p in enumerate(seats):
            if p.spec.id == trained.TRAINED_ID:  # the model before the search's columns
                base = self.policies[p.spec.base]
                trained.fill_row(w[i], p.weights, base.weights.values(), base.id)
            elif p.spec.id == search.SEARCH_ID:  # the search's parameters in the last columns
                nb = len(p.weights) - len(search.PARAMS)
                w[i, :nb] = p.weights[:nb]
                if p.model:  # over `trained`: its model and header too
                    base = self.policies[self.policies[p.spec.base].base]
                    trained.fill_row(w[i], p.model, base.weights.values(), base.id)
                tail = search.row_tail(p.weights[nb:], self.policies[p.spec.base].id)
                w[i, -search.N_PARAMS :] = tail
            else:
                w[i, : len(p.weights)] = p.weights
        return ids, w

    def describe(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "title": self.title,
            "players": [self.min_players, self.max_players],
            "variants": self.variants.describe(),
            "readings": {
                k: {"replaces": r, "source": src} for k, (r, src) in self.readings().items()
            },
            "policies": {
                k: {"description": p.description, "weights": self._shown_weights(p)}
                for k, p in self.policies.items()
            },
            "default_policy": self.default_policy,
            "reference": self.reference,
            "policy_note": self.policy_note,
            "rules": self.rules_fields(),
        }


def _complete_declaration(spec: GameSpec) -> None:
    """The parts a declaration leaves out, from where they are declared: the name (the rules
    class's game), the default player
    (the first of the policies), the driver and the end reasons from the trace format (its
    driver, its state module's END_REASONS), the variants, the packing and the values named
    for rules fields from the rules class's module (VARIANTS, pack, NAMED_VALUES if any)."""
    rules = sys.modules[spec.rules_cls.__module__]
    if not spec.name:
        object.__setattr__(spec, "name", spec.rules_cls.GAME)
    if not spec.default_policy and spec.policies:
        object.__setattr__(spec, "default_policy", next(iter(spec.policies)))
    if not spec.named_values:
        object.__setattr__(spec, "named_values", dict(getattr(rules, "NAMED_VALUES", {})))
    derived = {
        "driver": lambda: spec.trace.driver,
        "end_reasons": lambda: tuple(spec.trace.state.END_REASONS),
        "variants": lambda: rules.VARIANTS,
        "pack": lambda: rules.pack,
    }
    for part, value in derived.items():
        from_trace = part in ("driver", "end_reasons")
        if getattr(spec, part) in (None, ()) and (spec.trace is not None or not from_trace):
            try:
                object.__setattr__(spec, part, value())
            except AttributeError as e:
                raise ContractError(f"{spec.name}: no '{part}' given, and {e}") from None


def _check_declaration(spec: GameSpec) -> None:
    """The game's declaration is whole and its own (ContractError naming the game and the
    part): a driver bound from a contract, and the rules class, the packing, the variants, the
    end reasons and the trace format of the driver's package."""
    contract = getattr(spec.driver, "contract", None)
    if contract is None:
        raise ContractError(f"{spec.name}: the driver is not bound from a GameContract")
    package = contract.package
    for part in ("variants", "pack", "trace"):
        if getattr(spec, part) is None:
            raise ContractError(f"{spec.name}: the declaration gives no '{part}'")
    if not spec.end_reasons:
        raise ContractError(f"{spec.name}: the declaration gives no 'end_reasons'")
    for part, where in (
        ("rules_cls", spec.rules_cls.__module__),
        ("pack", getattr(spec.pack, "__module__", "")),
    ):
        if not (where == package or where.startswith(package + ".")):
            raise ContractError(f"{spec.name}: '{part}' is from {where}, not {package}")
    if spec.trace.driver is not spec.driver:
        raise ContractError(f"{spec.name}: the trace format is another game's")
    if spec.default_policy not in spec.policies:
        raise ContractError(f"{spec.name}: the default policy '{spec.default_policy}' is unknown")


def _search_weights(base: PolicySpec, params: dict[str, float] | None = None):
    """The weight dict of a `search` seat on `base`: the base's weights in its order, then the
    search's (simcore.frame.search.PARAMS, in order; GameSpec.policy_arrays moves them to the last
    columns of the row, with the base's id)."""
    vals = {k: v[0] for k, v in search.PARAMS.items()} | dict(params or {})
    return dict(base.weights) | {k: vals[k] for k in search.PARAMS}


def split_players(text: str) -> list[str]:
    """A --policy text as its players' texts, the one place such a text is split: a name (with
    ':' weights) starts a player, a bare 'key=value' belongs to the player before
    ('search:budget=8,base=greedy' is one player, 'balanced,random' two)."""
    out: list[str] = []
    for token in (t.strip() for t in text.split(",")):
        if "=" in token and ":" not in token and out:
            out[-1] += "," + token
        else:
            out.append(token)
    return out


def _player_entry(player: str, text: str) -> tuple[str, dict[str, str]]:
    """One player's text (split_players') as (name, {weight: value text}); `text`, the whole
    --policy text, for the messages."""
    head, *more = player.split(",")
    if not head:
        raise RulesError(f"empty policy name in '{text}'")
    if "=" in head and ":" not in head:
        raise RulesError(f"weight '{head}' comes before any policy name")
    name, _, rest = head.partition(":")
    if rest and "=" not in rest:
        raise RulesError(f"policy weights must be name=value, got '{rest}'")
    weights: dict[str, str] = {}
    for token in ([rest] if rest else []) + more:
        k, v = token.split("=", 1)
        weights[k.strip()] = v.strip()
    return name.strip(), weights


GAMES: dict[str, GameSpec] = {}


def register(**declaration: Any) -> GameSpec:
    """A game's GameSpec from its declaration (the GameSpec fields it gives), checked and
    added to the registry."""
    spec = GameSpec(**declaration)
    GAMES[spec.name] = spec
    return spec


def get_game(name: str) -> GameSpec:
    _load_all()
    if name not in GAMES:
        raise RulesError(f"unknown game '{name}' (known: {', '.join(sorted(GAMES))})")
    return GAMES[name]


def all_games() -> dict[str, GameSpec]:
    """Every registered game, by name in alphabetical order (whatever order they were
    imported in)."""
    _load_all()
    return dict(sorted(GAMES.items()))


def _load_all() -> None:
    """Import every game package of simcore.games (each registers its GameSpec on import)."""
    import pkgutil

    top = __name__.split(".")[0]  # "simcore" (tools/ab_bench.py imports copies by other names)
    games = importlib.import_module(f"{top}.games")
    for mod in pkgutil.iter_modules(games.__path__):
        if mod.ispkg:
            importlib.import_module(f"{top}.games.{mod.name}")
