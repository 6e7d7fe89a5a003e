"""The game is resolved once, at the API's edge (issue #48): the studies and the run engine
take a GameSpec, never a name. Below cli.py the one lookup of a game by a name the code was
handed is simcore.run.chunks.task_game (a task carries its game's name to a Dask worker); a
--policy text is split into players by one function, simcore.frame.registry.split_players."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = sorted((ROOT / "simcore").rglob("*.py")) + sorted((ROOT / "analysis").glob("*.py"))


def _functions_calling(name: str, literal_ok: bool) -> list[str]:
    """'module:function' of every call of `name` in the library (with a string literal as its
    argument too, unless literal_ok)."""
    out = []
    for path in LIBRARY:
        tree = ast.parse(path.read_text())
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if not isinstance(node, ast.Call):
                    continue
                called = getattr(node.func, "id", getattr(node.func, "attr", None))
                literal = all(isinstance(a, ast.Constant) for a in node.args)
                if called == name and not (literal_ok and literal):
                    out.append(f"{path.relative_to(ROOT).with_suffix('')}:{fn.name}")
    return sorted(set(out))


def test_a_game_name_is_resolved_only_on_the_worker():
    """get_game(name) below cli.py: only task_game (a fixed game such as the bench's
    get_game("pig") is no resolution of a caller's name)."""
    assert _functions_calling("get_game", literal_ok=True) == ["simcore/run/chunks:task_game"]


def test_no_study_or_runner_takes_a_name():
    for path in LIBRARY:
        text = path.read_text()
        assert "isinstance(game, str)" not in text, path
        assert "str | GameSpec" not in text and "game: str | Any" not in text, path


def test_policy_text_is_split_in_one_function():
    defs = [p for p in LIBRARY if "def split_players(" in p.read_text()]
    assert defs == [ROOT / "simcore/frame/registry.py"]
    users = _functions_calling("split_players", literal_ok=False)
    assert "simcore/frame/registry:parse_policies" in users
