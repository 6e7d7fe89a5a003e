"""The docs as references, kept true by the tree: every file a doc, a docstring or a comment
points to exists (a moved or renamed module leaves no stale pointer behind), docs/performance.md
stays a reference (current figures, not a log), and docs/adding-a-study.md's tables name real
files and pair every study with its renderer (as tests/pig/test_doc.py keeps
docs/adding-a-game.md true)."""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted(ROOT.glob("docs/*.md")) + [ROOT / "README.md"]
SOURCES = sorted(
    p
    for pattern in ("simcore/**/*.py", "analysis/*.py", "tools/*.py", "tests/**/*.py", "cli.py")
    for p in ROOT.glob(pattern)
)


def file_names() -> set[str]:
    """Every file and folder name in the repository (hidden folders and caches left out)."""
    out: set[str] = set()
    for _, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__pycache__"))]
        out.update(dirs, files)
    return out


# files named that are not in the repository, and why
ELSEWHERE = {
    "GAME-DATA.md": "the seeds' game data, ../shared/GAME-DATA.md beside the repository",
    "DESIGN.md": "the architecture, ../shared/DESIGN.md beside the repository",
    "report.md": "what `balance report` writes",
}
# a path from the top of the repository: simcore/frame/search.py, docs/skill.md
PATH = re.compile(r"(?<![\w./-])((?:simcore|analysis|tests|tools|docs)/[\w/.-]*\w\.(?:py|md))\b")
# a file by its name alone: test_layers.py, skill.md
NAME = re.compile(r"(?<![\w./<>-])([\w-]+\.(?:py|md))\b")
# a module by its dotted name: simcore.base.verdicts, analysis.compare.comparison
DOTTED = re.compile(r"(?<![\w.])((?:simcore|analysis|tests)(?:\.[a-z_]\w*)+)")


def prose(path: Path) -> str:
    """The words of a file a reader follows: a doc whole; of a Python file its docstrings and
    comments."""
    text = path.read_text()
    if path.suffix == ".md":
        return text
    tree = ast.parse(text)
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    docs = [ast.get_docstring(n) or "" for n in ast.walk(tree) if isinstance(n, kinds)]
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    comments = [t.string for t in tokens if t.type == tokenize.COMMENT]
    return "\n".join(docs + comments)


def top_names(module: Path) -> set[str]:
    """The names a module's top level defines, assigns or imports, and __getattr__'s lazy ones
    (any string constant of the module: simcore's _LAZY table)."""
    tree = ast.parse(module.read_text())
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    lazy = "__getattr__" in out
    consts = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)} if lazy else set()
    return out | {c for c in consts if isinstance(c, str)}


def module_missing(dotted: str) -> bool:
    """Whether a dotted name names nothing: each part must be a package or module of the one
    before, or a name the one before defines or imports (simcore.get_game,
    simcore.frame.registry.get_game); what follows a name (its attributes) is not checked."""
    parts = dotted.split(".")
    here = ROOT / parts[0]
    for part in parts[1:]:
        if (here / part / "__init__.py").exists():
            here = here / part
        elif (here / f"{part}.py").exists():
            here = here / part
        else:
            module = here / "__init__.py" if here.is_dir() else here.with_suffix(".py")
            return part not in top_names(module)
    return False


def stale(path: Path) -> list[str]:
    text = prose(path)
    out = [p for p in PATH.findall(text) if not (ROOT / p).exists()]
    out += [n for n in NAME.findall(text) if n not in NAMES and n not in ELSEWHERE]
    return out + [d for d in DOTTED.findall(text) if module_missing(d)]


NAMES = file_names()


@pytest.mark.parametrize("path", DOCS + SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_a_reader_is_sent_to_exists(path):
    assert stale(path) == [], f"{path.relative_to(ROOT)} points to files that do not exist"


def test_the_pointer_finder_finds_what_it_should():
    found = PATH.findall(
        "see simcore/frame/search.py, docs/skill.md; simcore/games/<game>/rules.py"
    )
    assert found == ["simcore/frame/search.py", "docs/skill.md"]
    assert NAME.findall("the table (test_layers.py, docs/x.md, <game>.py)") == ["test_layers.py"]
    assert DOTTED.findall("simcore.base.verdicts.record and analysis.compare") == [
        "simcore.base.verdicts.record",
        "analysis.compare",
    ]
    assert module_missing("analysis.verdict_engine_gone.f")
    assert module_missing("simcore.frame.no_such_module")
    assert not module_missing("simcore.frame.registry.get_game")
    assert module_missing("simcore.frame.registry.no_such_name")
    assert not module_missing("simcore.get_game")  # a name simcore/__init__.py gives


def test_performance_md_is_a_reference_not_a_log():
    """At most 200 lines: the current figures, how to measure each, the decisions that stand
    (each with what it was measured with); the history of the measurements is git's."""
    lines = (ROOT / "docs" / "performance.md").read_text().splitlines()
    assert len(lines) <= 200, len(lines)
    assert not [t for t in lines if re.match(r"#+ .*(#\d+|[Ss]ession \d)", t)], "per-issue section"


# --------------------------------------------------------------- docs/adding-a-study.md
STUDY = ROOT / "docs" / "adding-a-study.md"
PAIR = re.compile(r"^\| (`simcore/studies/.*?) \| (.*?) \| (.*?) \|$")


def pairs(text: str) -> dict[str, list[str]]:
    """The study <-> renderer table: each study module -> the renderers its row names."""
    out = {}
    for line in text.splitlines():
        m = PAIR.match(line)
        if m:
            renderers = re.findall(r"`(analysis/[\w/]+\.py)`", m.group(2))
            for study in re.findall(r"`(simcore/studies/\w+\.py)`", m.group(1)):
                out[study] = renderers
    return out


def test_every_study_module_has_its_row_and_nothing_else():
    studies = {str(p.relative_to(ROOT)) for p in ROOT.glob("simcore/studies/*.py")}
    assert set(pairs(STUDY.read_text())) == studies - {"simcore/studies/__init__.py"}


def test_every_path_the_tables_name_exists():
    named = re.findall(r"`((?:simcore|analysis|tests|docs)/[\w/.-]+|cli\.py)`", STUDY.read_text())
    assert named and [p for p in named if not (ROOT / p).exists()] == []


def test_a_study_has_a_renderer_or_says_what_prints_it():
    rows = [m for t in STUDY.read_text().splitlines() if (m := PAIR.match(t))]
    for m in rows:
        renderers = re.findall(r"`(analysis/[\w/]+\.py)`", m.group(2))
        assert renderers or m.group(2).startswith("none: "), m.group(0)


def test_the_readme_layout_pairs_them_alike():
    """The README's layout section carries the same pairing."""
    assert pairs((ROOT / "README.md").read_text()) == pairs(STUDY.read_text())


# ------------------------------------------------------------------------------- README
def test_the_readme_opening_quotes_the_example_output():
    """The opening's one example is a line of the example session's output, which
    tests/test_honest_output.py keeps equal to what the command prints."""
    lines = (ROOT / "README.md").read_text().splitlines()
    session = lines.index("## Example session")
    quoted = [t.strip() for t in lines[:session] if t.startswith("    ")]
    first = lines.index("$ balance simulate sunken-city --players 3 --games 1e4 --seed 1") + 1
    end = next(i for i in range(first, len(lines)) if lines[i].startswith("$ "))
    assert quoted and set(quoted) <= {t.strip() for t in lines[first:end]}
