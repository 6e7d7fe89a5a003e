"""The game contract (simcore.frame.contract): a game's declaration is checked when it is built,
with one ContractError naming the game and the hook; the registry refuses an incomplete or
foreign declaration; the numba cache key follows every frame file."""

from __future__ import annotations

import dataclasses
import shutil

import pytest

from simcore.base.errors import ContractError
from simcore.frame import jit
from simcore.frame.contract import OPTIONAL, REQUIRED, GameContract
from simcore.frame.jit import kernel
from simcore.frame.registry import GameSpec, all_games

SC = "simcore.games.sunken_city"


def contract_of(game: str) -> GameContract:
    return all_games()[game].driver.contract


def test_every_game_declares_its_hooks_in_one_contract():
    for name, spec in all_games().items():
        c = spec.driver.contract
        assert isinstance(c, GameContract), name
        assert set(REQUIRED) <= set(c.hooks()), name
        for hook in c.hooks().values():
            assert hook.py_func.__module__.startswith(c.package), name
        assert spec.driver.search == c.has_search


def test_a_missing_required_hook_is_one_error_naming_game_and_hook():
    c = contract_of("sunken-city")
    with pytest.raises(ContractError, match=rf"^{SC}: the required hook 'standing' is missing"):
        dataclasses.replace(c, standing=None)


def test_a_hook_with_the_wrong_arity_is_refused():
    @kernel
    def standing(s, r):  # the frame passes (s, r, seat)
        return 0

    standing.py_func.__module__ = SC + ".play"
    c = contract_of("sunken-city")
    wrong = r"hook 'standing' takes 2 arguments, the frame passes 3"
    with pytest.raises(ContractError, match=wrong):
        dataclasses.replace(c, standing=standing)


def test_a_hook_of_another_game_is_refused():
    other = contract_of("sumeria")
    c = contract_of("sunken-city")
    with pytest.raises(ContractError, match=rf"{SC}: hook 'scores' is simcore.games.sumeria"):
        dataclasses.replace(c, scores=other.scores)


def test_a_hook_that_is_not_compiled_is_refused():
    def derived(s, r, k, seat):
        return 0

    with pytest.raises(ContractError, match=r"hook 'derived' is not a compiled kernel"):
        dataclasses.replace(contract_of("sunken-city"), derived=derived)


def test_the_search_hooks_come_in_pairs():
    c = contract_of("sunken-city")
    with pytest.raises(ContractError, match=r"'search_options' is given without 'search_play'"):
        dataclasses.replace(c, search_play=None)
    t = contract_of("secrets-of-the-sea")
    with pytest.raises(ContractError, match=r"'search_step' is given without search_options"):
        dataclasses.replace(t, search_options=None, search_play=None)


def test_every_hook_of_the_table_is_a_field():
    names = {f.name for f in dataclasses.fields(GameContract)}
    assert set(REQUIRED) | set(OPTIONAL) <= names


def test_the_registry_refuses_an_incomplete_declaration():
    spec = all_games()["sunken-city"]
    with pytest.raises(ContractError, match=r"sunken-city: the declaration gives no 'trace'"):
        dataclasses.replace(spec, trace=None)
    with pytest.raises(ContractError, match=r"sunken-city: the trace format is another game's"):
        dataclasses.replace(spec, trace=all_games()["sumeria"].trace)
    with pytest.raises(ContractError, match=r"'pack' is from simcore.games.sumeria"):
        dataclasses.replace(spec, pack=all_games()["sumeria"].pack)
    with pytest.raises(ContractError, match=r"not bound from a GameContract"):
        GameSpec("x", spec.rules_cls, spec.policies, name="x", driver=object())


def test_the_cache_key_changes_with_any_frame_file(tmp_path):
    """A copy of simcore: editing any frame file (the search's templates included) or a
    game's file changes the key of that game's compiled code; another game's file does not."""
    jit._hash_files.cache_clear()  # hashed anew: the tree may have changed since the import
    jit._hash_file.cache_clear()
    root = tmp_path / "simcore"
    shutil.copytree(jit._ROOT.parent, root, ignore=shutil.ignore_patterns("__pycache__"))
    frame = root / "frame"
    module = "simcore.games.sumeria.play"
    before = jit.cache_key(module, frame)
    assert before == jit.cache_key(module, jit._ROOT)
    for path in (frame / "search.py", frame / "standing.py", root / "base" / "standing_columns.py"):
        jit._hash_files.cache_clear()
        jit._hash_file.cache_clear()
        path.write_text(path.read_text() + "\n# edited\n")
        after = jit.cache_key(module, frame)
        assert after != before, path
        before = after
    jit._hash_files.cache_clear()
    jit._hash_file.cache_clear()
    metrics = root / "base" / "metrics.py"  # the analysis's definitions: no compiled code
    metrics.write_text(metrics.read_text() + "\n# edited\n")
    assert jit.cache_key(module, frame) == before
    (root / "games" / "sunken_city" / "rules.py").write_text("# edited\n")
    assert jit.cache_key(module, frame) == before
    (root / "games" / "sumeria" / "rules.py").write_text("# edited\n")
    jit._hash_files.cache_clear()
    assert jit.cache_key(module, frame) != before
    jit._hash_files.cache_clear()
    jit._hash_file.cache_clear()


def test_state_fields_of_a_module_name_what_is_missing():
    import types

    from simcore.frame.contract import StateFields

    mod = types.ModuleType("simcore.games.x.state")
    mod.STATE_SIZE, mod.S_SEAT, mod.S_END_REASON, mod.S_GAME_OVER = 10, 0, 1, 2
    with pytest.raises(ContractError, match=r"simcore.games.x.state: .* no S_ERROR, END_ERROR"):
        StateFields.of(mod, trace_full=9)
    mod.S_ERROR, mod.END_ERROR, mod.A_GAME_END = 3, 4, 5
    f = StateFields.of(mod, trace_full=9)
    assert (f.size, f.error, f.game_end, f.trace_full, f.turn) == (10, 3, 5, 9, -1)


def test_a_declared_kernel_is_the_hook_of_its_name():
    c = contract_of("sunken-city")

    @kernel
    def standings(s, r, seat):  # no hook has this name
        return 0

    standings.py_func.__module__ = SC + ".play"
    base = (c.setup, c.play_turn, c.check_invariants, c.snapshot, c.scores, c.record)
    made = GameContract.declare(c.module, c.layout, c.state, base, c.standing, c.length)
    assert made.hooks() == {**dict(zip(REQUIRED, (*base, c.standing))), "length": c.length}
    with pytest.raises(ContractError, match=rf"^{SC}: kernel 'standings' is named like no hook"):
        GameContract.declare(c.module, c.layout, c.state, base, standings)
    with pytest.raises(ContractError, match=rf"^{SC}: hook 'scores' is given twice"):
        GameContract.declare(c.module, c.layout, c.state, base, c.standing, c.length, c.scores)
    with pytest.raises(ContractError, match=rf"^{SC}: hook 'length' is given twice"):
        GameContract.declare(
            c.module, c.layout, c.state, base, c.standing, c.length, length=c.length
        )


def test_a_declaration_takes_the_rest_from_where_it_is_declared():
    """register(...): the name from the rules class (RulesBase game=), the driver and the end
    reasons from the trace format, the variants and the packing from the rules module."""
    import sys

    for name, spec in all_games().items():
        rules = sys.modules[spec.rules_cls.__module__]
        assert name == spec.name == spec.rules_cls.GAME
        assert spec.driver is spec.trace.driver
        assert spec.end_reasons == tuple(spec.trace.state.END_REASONS)
        assert spec.variants is rules.VARIANTS and spec.pack is rules.pack
        assert spec.named_values == getattr(rules, "NAMED_VALUES", {})
    assert all_games()["sumeria"].default_policy == "balanced"  # named: not its first
    assert all_games()["pig"].default_policy == "hold-at"  # the first of its policies


def test_describe_says_an_action_by_its_type():
    from simcore.frame.replay import describe

    phrases = {"bank": "seat {seat!L} banks ${value:,}", "pig": lambda a: f"loses {a['lost']}"}
    assert describe({"type": "bank", "seat": 2, "value": 12000}, phrases) == "seat C banks $12,000"
    assert describe({"type": "pig", "lost": 7}, phrases) == "loses 7"
    assert describe({"type": "hold", "score": 3}, phrases) == '{"type": "hold", "score": 3}'
