"""tools/cycle_profile.py (cycles per call by the CPU's cycle counter): how it rewrites a
function into a counted wrapper, that the functions docs/performance.md profiles still exist
in a form it can wrap, and that importing it changes nothing."""

from __future__ import annotations

import os

import pytest

from tests.perf_scripts import load_script

# the phases of a Sunken City turn that docs/performance.md profiles ("Reproduce")
SUNKEN_CITY = (
    "heuristic_turn,choose_card,heuristic_build,heuristic_move,heuristic_spirit,"
    "place_best_street,place_best_house,raised,key_houses,plan_route,walk_to,best_spirit_path"
).split(",")

SOURCE = '''@kernel
def f(s, r,
      seat):
    """doc"""
    return s[0] + seat


@kernel(inline="always")
def g(x):
    return x
'''


def load():
    return load_script("cycle_profile")


def test_call_args():
    call_args = load().call_args
    assert call_args("s, r,\n      seat") == "s, r, seat"
    assert call_args("a, b=1, c: int = 2") == "a, b, c"
    assert call_args("") == ""


def test_wrap_renames_and_counts_into_the_given_slots():
    wrap = load().wrap
    out = wrap(SOURCE, "f", 3, 123456)
    assert "def _f_raw(s, r,\n      seat):" in out
    assert out.count("def f(") == 1  # only the wrapper keeps the name
    wrapper = out[out.index("def f(") :]
    assert "_f_raw(s, r, seat)" in wrapper
    assert "_cp_add(6, " in wrapper and "_cp_add(7, 1)" in wrapper
    assert "inttoptr(_cp_ir.Constant(i64, 123456)" in out
    # a second function in the same module: the counters are defined once
    out2 = wrap(out + "\n\n@kernel\ndef h(x):\n    return x\n", "h", 4, 123456)
    assert out2.count("def _cp_cycles(") == 1
    assert "_cp_add(8, " in out2
    compile(out2, "<patched>", "exec")  # still Python


def test_the_counters_come_with_the_first_wrapper_of_a_module():
    """The counted call of nothing and the counter reader (EXTRA) name _cp_cycles before any
    wrapper defined it: wrapping _cp_empty must still add the counters' definitions."""
    mod = load()
    out = mod.wrap(mod.EXTRA, "_cp_empty", 0, 1)
    assert out.count("def _cp_cycles(") == 1 and out.count("def _cp_add(") == 1
    compile(out, "<patched>", "exec")


def test_wrap_leaves_what_it_cannot_wrap():
    wrap = load().wrap
    assert wrap(SOURCE, "g", 0, 1) is None  # inline="always": would no longer be inlined
    assert wrap(SOURCE, "nothing", 0, 1) is None


def test_the_profiled_phases_still_exist(tmp_path):
    """Each phase is found in the module of the game package that defines it (the players
    are a package of several modules) and wrapped there, once."""
    mod = load()
    where = mod.patch_tree(mod.ROOT, tmp_path, "sunken_city", SUNKEN_CITY, 4096)
    package = tmp_path / "simcore" / "games" / "sunken_city"
    assert where["plan_route"] == package / "players" / "routes.py"
    for i, f in enumerate(SUNKEN_CITY):
        text = where[f].read_text()
        assert text.count(f"def _{f}_raw(") == 1 and text.count(f"def {f}(") == 1
        assert f"_cp_add({2 * i}, " in text[text.index(f"def {f}(") :]
        compile(text, str(where[f]), "exec")
    with pytest.raises(SystemExit, match="no_such_function.*inline"):
        mod.patch_tree(mod.ROOT, tmp_path / "b", "sunken_city", ["no_such_function"], 1)


def test_a_function_defined_in_two_modules_is_refused(tmp_path):
    package = tmp_path / "game"
    (package / "players").mkdir(parents=True)
    for path in (package / "engine.py", package / "players" / "turn.py"):
        path.write_text("@kernel\ndef f(x):\n    return x\n")
    with pytest.raises(SystemExit, match="f is defined in several modules.*engine.py"):
        load().find_definitions(package, ["f"])


def test_the_wrapper_follows_the_function_so_later_uses_get_it():
    out = load().wrap(SOURCE + "\n\nTABLE = (f, g)\n", "f", 0, 1)
    assert out.index("def _f_raw(") < out.index("def f(") < out.index("TABLE = (f, g)")
    assert out.index("TABLE = (f, g)") < out.index("def _cp_cycles(")


def test_module_names():
    mod = load()
    root = mod.ROOT
    path = root / "simcore" / "games" / "sunken_city" / "players" / "turn.py"
    assert mod.module_name(root, path) == "simcore.games.sunken_city.players.turn"


def test_importing_it_leaves_the_environment_alone():
    before = dict(os.environ)
    load()
    assert dict(os.environ) == before
