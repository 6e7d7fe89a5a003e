"""The house plan (issue #34): simcore in layers, each importing only the layers below it; a game
package imports no other game; `analysis` imports only the numba-free base; importing
`analysis` and the base does not load numba.

The layer of a module is the first entry of LAYERS that its name starts with. A module may
import a module of its own layer or of a lower one; `simcore` itself (its lazy names) counts
as the top of simcore.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.test_structure import ROOT, import_graph

# (module prefix, layer): lower layers first
LAYERS: tuple[tuple[str, int], ...] = (
    ("simcore.base", 0),
    ("simcore.frame", 1),
    ("simcore.games", 2),
    ("simcore.run", 3),
    ("simcore.studies", 4),
    ("simcore", 5),  # the package's lazy names (get_game, simulate, ...)
    ("analysis", 5),  # may import only simcore.base (ANALYSIS_MAY_IMPORT)
    ("cli", 6),
)
ANALYSIS_MAY_IMPORT = ("simcore.base", "analysis")


def layer_of(module: str) -> int:
    for prefix, layer in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return layer
    raise KeyError(module)


def game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) >= 3 and parts[:2] == ["simcore", "games"] else None


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import that goes against the layer table, as 'a -> b (why)'."""
    bad = []
    for a, targets in sorted(graph.items()):
        for b in sorted(targets):
            if layer_of(b) > layer_of(a):
                bad.append(f"{a} -> {b} (layer {layer_of(a)} imports layer {layer_of(b)})")
            elif a.startswith("analysis") and not b.startswith(ANALYSIS_MAY_IMPORT):
                bad.append(f"{a} -> {b} (analysis imports only simcore.base)")
            elif game_of(a) and game_of(b) and game_of(a) != game_of(b):
                bad.append(f"{a} -> {b} (a game imports another game)")
    return bad


def test_imports_go_only_downwards():
    graph = import_graph()
    assert {"simcore.base.metrics", "simcore.frame.skeleton", "simcore.run.runner"} <= set(graph)
    for module in graph:
        layer_of(module)  # every module of the project has a layer
    assert upward_imports(graph) == []


@pytest.mark.parametrize(
    "planted, why",
    [
        (("simcore.base.metrics", "simcore.frame.jit"), "layer 0 imports layer 1"),
        (("simcore.frame.skeleton", "simcore.run.runner"), "layer 1 imports layer 3"),
        (("simcore.run.runner", "simcore.studies.compare"), "layer 3 imports layer 4"),
        (("analysis.stats", "simcore.frame.registry"), "analysis imports only simcore.base"),
        (("simcore.games.pig.play", "simcore.games.sumeria.engine"), "another game"),
    ],
)
def test_the_layer_test_finds_a_planted_upward_import(planted, why):
    graph = {m: set(t) for m, t in import_graph().items()}
    a, b = planted
    graph.setdefault(a, set()).add(b)
    graph.setdefault(b, set())
    found = upward_imports(graph)
    assert len(found) == 1 and found[0].startswith(f"{a} -> {b}") and why in found[0]


def test_analysis_and_the_base_do_not_load_numba():
    code = (
        "import sys, analysis, analysis.stats, analysis.compare, analysis.report, "
        "analysis.robustness, analysis.tuning_tables, analysis.render, analysis.summary, simcore, "
        "simcore.base.rulesbase, simcore.base.metrics, simcore.base.inputs, "
        "simcore.base.presetfile, simcore.base.pareto, simcore.base.errors, "
        "simcore.base.verdicts, simcore.base.fairness\n"
        "from simcore import RulesError\n"
        "print(sorted(m for m in sys.modules if m == 'numba' or m.startswith('numba.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
