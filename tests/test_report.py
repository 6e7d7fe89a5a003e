"""The report (every section, images that decode, opens offline) and the compare / dice / sweep
commands through typer's CliRunner; bad input is one line on stderr and exit status 2."""

from __future__ import annotations

import base64
import io
import json
import re

import matplotlib.image as mpimg
import pytest
from typer.testing import CliRunner

import cli
from tests.test_cli import run_main

runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"


def balance(command: str, *more: str) -> str:
    """What `balance COMMAND MORE...` prints (the command's words split at spaces; MORE kept
    whole, e.g. paths); the command must succeed."""
    res = runner.invoke(cli.app, [*command.split(), *more])
    assert res.exit_code == 0, res.output
    return res.output


def test_report_has_every_section(small_report):
    out, output = small_report
    assert f"report written to {out / 'report.html'}" in output
    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    assert md.index("## Findings") < md.index("## Provenance") < md.index("## Seat balance")
    assert "Verdicts that hold" in md or "further verdicts" in md or "No verdict" in md
    for section in (
        "## Findings",
        "## Robustness of the verdicts",
        "## Provenance",
        "## Seat balance",
        "### 2 players",
        "### 4 players",
        "## Variant comparison",
        "## Dice",
        "## Player ladder",
    ):
        assert section in md, section
        tag = f"<h{section.count('#')}>{section.lstrip('# ')}</h{section.count('#')}>"
        assert tag in html, tag
    for item in ("package version", "command:", "seed: 1", "rules hash", "wall time", "cores"):
        assert item in md and item in html, item
    for words in ("Seat win rates", "Game length", "End reasons", "no-chips"):
        assert words in md, words
    assert "is the fairest die" in md or "no die is clearly fairer" in md
    js = json.loads((out / "report.json").read_text())
    assert {"seats", "variants", "dice", "ladder", "robustness"} <= set(js)
    assert js["robustness"]["verdicts"] and js["games"]["robustness"] == 3
    assert len(js["seats"]) == 3 and js["games"]["seats"] == 120


def test_report_score_distributions_and_p_values(small_report):
    """Every player count's score distribution is there (each seat's counts add up to the
    games), and no p-value below 0.001 is printed as a number: the variant tables show
    '< 0.001' for each such adjusted p, '0.001' only for a p that is 0.001 to two digits."""
    out, _ = small_report
    md = (out / "report.md").read_text()
    js = json.loads((out / "report.json").read_text())
    for part in js["seats"]:
        assert len(part["score_distribution"]) == part["players"]
        for dist in part["score_distribution"]:
            assert dist and sum(dist.values()) == part["games"]
    shown = [
        r["p_adjusted"]
        for v in js["variants"]
        for r in v["table"]
        if r["p_adjusted"] is not None
        and (
            r["metric"] in ("largest_gap", "fpa", "shared", "rounds")
            or r["metric"][:4] in ("win_", "scor")
        )
    ]
    tiny = sum(p < 0.001 for p in shown)
    assert tiny > 0  # the short variant's length: the check below means something
    assert md.count("| < 0.001 |") >= tiny
    assert md.count("| 0.001 |") == sum(0.001 <= p < 0.00105 for p in shown)
    assert not re.search(r"p = 0(\.0+)?[;,) ]", md)


def test_report_images_decode_and_page_is_self_contained(small_report):
    out, _ = small_report
    html = (out / "report.html").read_text()
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    md = (out / "report.md").read_text()
    linked = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", md)
    assert len(images) == len(linked) >= 15
    for data in images:
        raw = base64.b64decode(data)
        assert raw.startswith(PNG)
        assert mpimg.imread(io.BytesIO(raw), format="png").shape[0] > 50
    for name in linked:
        assert (out / name).read_bytes().startswith(PNG)
    # nothing fetched from elsewhere: no scripts, no external links or sources
    assert "<script" not in html and "http://" not in html and "https://" not in html
    assert re.findall(r'src="(?!data:)', html) == []


# a command and what its text output must contain
TEXT_OUTPUTS = [
    (
        "compare sunken-city --players 3 --variant base --variant no-chips"
        " --set-arm die=purple,chips=false --games 800 --policy random",
        ["baseline base", "adjusted p", "no-chips: ", "die=purple,chips=false: "],
    ),
    (
        "simulate sunken-city --players 3 --games 2000 --policy balanced,random,random",
        ["seat fairness chi-square p < 0.001;"],
    ),
    (
        "dice sunken-city --players 2,3 --die 0,1,1,2,2,3 --die 1,1,2,2,3,3 --games 400"
        " --policy random",
        ["2 players: ", "3 players: ", "die is", "adjusted p", "1,1,2,2,3,3", "*"],
    ),
]


@pytest.mark.parametrize(
    "command,needles", TEXT_OUTPUTS, ids=[c.split()[0] for c, _ in TEXT_OUTPUTS]
)
def test_command_text_output(command, needles):
    output = balance(command)
    for needle in needles:
        assert needle in output, needle


def test_compare_json():
    js = json.loads(balance("compare sunken-city --set-arm die=black --games 300 --json"))
    assert [a["label"] for a in js["arms"]] == ["base", "die=black"]
    assert js["arms"][1]["rules"]["die"] == [0, 1, 2, 2, 3, 3]
    row = next(r for r in js["table"] if r["arm"] == "die=black" and r["metric"] == "rounds")
    assert {
        "diff",
        "diff_low",
        "diff_high",
        "p_value",
        "p_adjusted",
        "adj_low",
        "adj_high",
        "tests",
        "verdict",
    } <= set(row)
    assert len(js["headlines"]) == 1
    assert any(v["key"] == "3p/effect/die=black/rounds" for v in js["verdicts"])


def test_compare_rules_file_arm(tmp_path):
    f = tmp_path / "v.toml"
    f.write_text("[variant.fast]\ndie = [1, 2, 3, 3, 4, 5]\n")
    command = "compare sunken-city --variant base --variant fast --games 300 --policy random --json"
    js = json.loads(balance(command, "--rules-file", str(f)))
    assert js["arms"][1]["rules"]["die"] == [1, 2, 3, 3, 4, 5]


def test_dice_json():
    js = json.loads(balance("dice sunken-city --players 4 --games 300 --json"))
    assert [r["die"] for r in js["table"]][0] == "purple"  # the rulebook's die comes first
    assert sum(r["fairest"] for r in js["table"]) == 1


def test_sweep_command(tmp_path):
    png = tmp_path / "sweep.png"
    command = "sweep sunken-city --players 3 --param chip_supply=2,8 --games 300 --policy random"
    output = balance(command, "--out", str(png))
    assert "chip_supply" in output and png.read_bytes().startswith(PNG)
    png2 = tmp_path / "heat.png"
    command = (
        "sweep sunken-city --param chips=true,false --param die=beige,black --games 200"
        " --policy random --metric rounds --json"
    )
    js = json.loads(balance(command, "--out", str(png2)))
    assert js["params"] == ["chips", "die"] and png2.read_bytes().startswith(PNG)
    assert len({(r["chips"], r["die"]) for r in js["table"]}) == 4


@pytest.mark.skipif(
    __import__("shutil").which("chromium") is None, reason="chromium is not installed"
)
def test_report_in_a_headless_browser(small_report, tmp_path):
    """tools/browser_check.py: every image loads, every section has content, nothing
    overlaps or sticks out (docs/robustness.md, "Looking at the report")."""
    from tests.perf_scripts import load_script

    out, _ = small_report
    tool = load_script("browser_check")
    res = tool.check(out / "report.html", tmp_path / "shot.png")
    assert res["problems"] == []
    assert res["images"] >= 15 and res["sections"] >= 10
    assert (tmp_path / "shot.png").read_bytes().startswith(PNG)
    # the first screen (1,400 x 800 px) holds the answer table's row of every player count,
    # and the page as it opens is at most 3 screens (issue #39)
    assert [r["first"] for r in res["answer"]["rows"]] == ["2", "3", "4"]
    assert (tool.WIDTH, tool.HEIGHT) == (1400, 800)
    assert res["answer"]["bottom"] <= tool.HEIGHT, res["answer"]
    assert res["opening_height"] <= 3 * tool.HEIGHT, res["opening_height"]


# ------------------------------------------------------------------ the rules options (#35)
MINE = "[variant.mine]\nchips = false\nstreets_space1 = [21, 24, 26]\n"


def test_report_takes_a_designers_variant_and_the_rules_options(tmp_path, monkeypatch, capsys):
    """`report --rules-file my.toml --variant mine` puts `mine` beside the report's own
    variants (Markdown and JSON); --players restricts the counts, --set the base rules."""
    rules = tmp_path / "my.toml"
    rules.write_text(MINE)
    out = tmp_path / "rep"
    args = ["report", "sunken-city", "--rules-file", str(rules), "--variant", "mine"]
    args += ["--players", "3", "--set", "chip_supply=6", "--games", "60", "--out", str(out)]
    code, _, err = run_main(args, monkeypatch, capsys)
    assert code == 0, err
    js = json.loads((out / "report.json").read_text())
    assert js["choice"]["players"] == [3]
    assert js["choice"]["variants"][-1] == "mine"
    assert js["choice"]["overrides"] == {"chip_supply": "6"}
    assert [s["players"] for s in js["seats"]] == [3]
    assert "mine" in json.dumps(js["variants"])
    assert all(s["arms"][-1] == "mine" for s in js["robustness"]["settings"])
    md = (out / "report.md").read_text()
    assert "`mine`" in md and "4 players" not in md.split("## Player ladder")[0]


def _refused(args, tmp_path, monkeypatch, capsys) -> str:
    """A report that is refused: one line, status 2, no output folder, nothing played."""
    monkeypatch.chdir(tmp_path)

    def refuse(*a, **k):
        raise AssertionError("a game was played for bad input")

    monkeypatch.setattr("simcore.run.jobs._run_local", refuse)
    code, out, err = run_main([*args, "--out", "rep"], monkeypatch, capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err + out and not (tmp_path / "rep").exists()
    return lines[0]


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--variant", "nope"], "unknown variant 'nope'"),
        (["--variant", "short+nope"], "unknown variant 'nope'"),
        (["--set", "colour=1"], "unknown rules key 'colour'"),
        (["--set", "chips=maybe"], "true or false"),
        (["--set", "chips"], "key=value"),
        (["--players", "5"], "2 to 4 players"),
        (["--players", "2,x"], "list of player counts"),
        (["--players", "3,3"], "twice"),
        (["--rules-file", "missing.toml"], "does not exist"),
        (["--rules-file", "bad.toml"], "variant 'mine' cannot be played"),
        (["--policy", "balanced:greed=-5"], "greed"),
    ],
)
def test_report_rules_options_bad_input(args, needle, tmp_path, monkeypatch, capsys):
    (tmp_path / "bad.toml").write_text("[variant.mine]\nstreets_space1 = [22, 25, 28]\n")
    line = _refused(
        ["report", "sunken-city", "--games", "60", *args], tmp_path, monkeypatch, capsys
    )
    assert needle in line, line


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--variant", "nope"], "unknown variant 'nope'"),
        (["--set", "colour=1"], "unknown rules key 'colour'"),
        (["--players", "1"], "2 to 4 players"),
    ],
)
def test_robustness_rules_options_bad_input(args, needle, tmp_path, monkeypatch, capsys):
    line = _refused(
        ["robustness", "sunken-city", "--games", "40", *args], tmp_path, monkeypatch, capsys
    )
    assert needle in line, line


# ------------------------------------------------------------------ the seam (#48)
def test_a_closed_section_renders_as_a_collapsed_heading():
    """Document.section: open, a heading and its blocks; closed, the same heading as the
    summary of a collapsible part (how the report writes everything after the answer)."""
    from analysis.html import Document

    doc = Document("t")
    with doc.section("Seat balance", closed=True):
        doc.text("inside")
    with doc.section("Notes"):
        doc.text("after")
    md = doc.markdown()
    assert "## Seat balance\n\n<details>\n<summary>Seat balance: the detail</summary>" in md
    assert "inside\n\n</details>\n\n## Notes\n\nafter" in md
    html = doc.html()
    assert '<details class="section"><summary><h2>Seat balance</h2></summary>' in html
    assert "<h2>Notes</h2>" in html and html.count("</details>") == 1


def test_the_report_runs_are_named_sections():
    """report_plan.report_sections: the played plans (keyed by section inside the plan) are
    ReportRuns' fields, read by attribute in analysis; the ladder keeps the plan's order."""
    from simcore.base.results import ReportLadder
    from simcore.studies.report import report_sections

    results = {
        ("seats", 2): "s2",
        ("variants", 2): "v2",
        ("dice",): {2: "d2"},
        ("vs_random", "b"): "rb",
        ("vs_random", "a"): "ra",
        ("h2h", "b", "a"): "hba",
        ("strong", 2): "t2",
        ("strong_vs", 2): "tv",
        ("dice_strong",): {2: "ds"},
        ("skill", "short"): "k",
        ("robustness",): "rob",
    }
    f = report_sections(results)
    assert f["seats"] == {2: "s2"} and f["variant_runs"] == {2: "v2"}
    assert f["dice"] == {2: "d2"} and f["robustness"] == "rob"
    assert f["ladder"] == ReportLadder({"b": "rb", "a": "ra"}, {("b", "a"): "hba"})
    assert list(f["ladder"].vs_random) == ["b", "a"]
    assert f["strong"] == {2: "t2"} and f["strong_vs"] == {2: "tv"} and f["skill"] == {"short": "k"}
    assert f["dice_strong"] == {2: "ds"}
    bare = report_sections({("seats", 3): "s3", ("robustness",): "rob"})
    assert bare["dice"] is None and bare["strong_vs"] == {} and bare["strong"] == {}
    assert bare["dice_strong"] is None
