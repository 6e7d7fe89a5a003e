"""Look at an HTML report in a real headless browser (chromium): a screenshot, and a check that
nothing is empty and nothing overlaps (docs/robustness.md, "Looking at the report").

    python tools/browser_check.py reports/sunken-city/report.html --screenshot shot.png

No browser driver is needed: a copy of the report gets a small script that, once the page has
loaded, opens every collapsible part and measures the page in the browser's own layout:
- every image has loaded and decoded (naturalWidth > 0) and is drawn with a size;
- every section (h2, h3) has content before the next heading of its level or above;
- no two blocks overlap (paragraphs, lists, tables, figures, headings, collapsible parts:
  the bounding boxes of any two that are not inside one another share no area);
- nothing is wider than the window (no block sticks out to the right).
chromium --dump-dom prints the page after the script ran; the script's findings are read back
from it. The screenshot is of the report as it opens (the Findings first). Exit status 0 when
every check passes, 1 when one fails (each failure printed), 2 when chromium is missing.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")
# a screen (issue #39: the page as it opens at most 3 screens, 1,400 x 2,400 px)
WIDTH, HEIGHT = 1400, 800

CHECK_JS = r"""
<script>
window.addEventListener('load', function () {
  var out = {images: 0, sections: 0, blocks: 0, problems: []};
  // the page as it opens (every collapsible part closed): its height, and the answer table
  // (the first table after the heading "The answer"): each row's first cell, its bottom
  out.opening_height = document.documentElement.scrollHeight;
  var h = Array.prototype.slice.call(document.querySelectorAll('h2')).filter(function (e) {
    return e.textContent.trim() === 'The answer'; })[0];
  var t = h ? h.nextElementSibling : null;
  while (t && t.tagName !== 'TABLE' && t.tagName !== 'H2') t = t.nextElementSibling;
  if (t && t.tagName === 'TABLE') {
    out.answer = {rows: [], bottom: Math.round(t.getBoundingClientRect().bottom + window.scrollY)};
    t.querySelectorAll('tbody tr').forEach(function (r) {
      out.answer.rows.push({first: r.cells[0].textContent.trim(),
                            bottom: Math.round(r.getBoundingClientRect().bottom + window.scrollY)});
    });
  }
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  document.querySelectorAll('img').forEach(function (im, k) {
    out.images++;
    var r = im.getBoundingClientRect();
    if (!im.complete || im.naturalWidth === 0 || r.width < 2 || r.height < 2)
      out.problems.push('image ' + k + ' (' + im.alt + ') did not load or has no size');
  });
  document.querySelectorAll('h2, h3').forEach(function (h) {
    out.sections++;
    // a closed section's heading is its part's summary: its content follows the summary
    var at = h.parentElement.tagName === 'SUMMARY' ? h.parentElement : h;
    var level = +h.tagName[1], n = at.nextElementSibling, content = 0;
    while (n && !(/^H[1-6]$/.test(n.tagName) && +n.tagName[1] <= level)) {
      if (!/^H[1-6]$/.test(n.tagName) &&
          (n.textContent.trim().length > 0 || n.querySelector('img'))) content++;
      n = n.nextElementSibling;
    }
    if (!content) out.problems.push('section "' + h.textContent + '" is empty');
  });
  var sel = 'body > *, details > *, figure, table, li';
  var els = Array.prototype.slice.call(document.querySelectorAll(sel)).filter(function (e) {
    return e.tagName !== 'SCRIPT' && e.tagName !== 'SUMMARY';
  });
  var boxes = els.map(function (e) { return e.getBoundingClientRect(); });
  out.blocks = els.length;
  var width = document.documentElement.clientWidth;
  for (var i = 0; i < els.length; i++) {
    var a = boxes[i];
    if (a.right > width + 1)
      out.problems.push(els[i].tagName + ' "' + els[i].textContent.slice(0, 40) +
                        '" sticks out to the right (' + Math.round(a.right) + ' > ' + width + ')');
    for (var j = i + 1; j < els.length; j++) {
      if (els[i].contains(els[j]) || els[j].contains(els[i])) continue;
      var b = boxes[j];
      var w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1)
        out.problems.push(els[i].tagName + ' "' + els[i].textContent.slice(0, 30) + '" overlaps ' +
                          els[j].tagName + ' "' + els[j].textContent.slice(0, 30) + '"');
    }
  }
  var pre = document.createElement('pre');
  pre.id = 'browser-check';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def find_browser(name: str | None = None) -> str | None:
    """The chromium executable: `name` when given, else the first of BROWSERS on the PATH."""
    if name:
        return shutil.which(name)
    return next((p for b in BROWSERS if (p := shutil.which(b))), None)


def _chromium(browser: str, *args: str, timeout: float = 120) -> str:
    cmd = [
        browser,
        "--headless",
        "--no-sandbox",  # root in a container has no user namespaces for the sandbox
        "--disable-gpu",
        "--hide-scrollbars",
        f"--window-size={WIDTH},{HEIGHT}",
        *args,
    ]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if res.returncode != 0:
        raise RuntimeError(f"chromium failed ({res.returncode}): {res.stderr.strip()[-300:]}")
    return res.stdout


def check(html: Path, screenshot: Path | None = None, browser: str | None = None) -> dict:
    """Render `html` in headless chromium: {'images', 'sections', 'blocks', 'problems',
    'opening_height' (the page's height in px as it opens, every collapsible part closed),
    'answer' (the answer table: each row's first cell and bottom in px, the table's bottom),
    when the page has one} as the page's script measured them; the screenshot (the first
    screen, WIDTH x HEIGHT) written when asked."""
    exe = find_browser(browser)
    if exe is None:
        raise FileNotFoundError("no chromium on the PATH (apt-get install chromium)")
    page = html.read_text()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "page.html"
        copy.write_text(page.replace("</body>", CHECK_JS + "</body>", 1))
        dom = _chromium(exe, "--virtual-time-budget=20000", "--dump-dom", copy.resolve().as_uri())
        if screenshot is not None:
            _chromium(
                exe, f"--screenshot={screenshot.resolve()}", html.resolve().as_uri(), timeout=120
            )
    m = re.search(r'<pre id="browser-check">(.*?)</pre>', dom, re.S)
    if not m:
        raise RuntimeError("the check's script did not run (no result in the page)")
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("html", type=Path)
    ap.add_argument("--screenshot", type=Path, default=None)
    ap.add_argument("--browser", default=None, help="the chromium executable")
    args = ap.parse_args(argv)
    try:
        res = check(args.html, args.screenshot, args.browser)
    except FileNotFoundError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(
        f"{args.html}: {res['images']} images, {res['sections']} sections, {res['blocks']} blocks"
        f" checked; {len(res['problems'])} problems; {res['opening_height']} px as it opens"
    )
    if res.get("answer"):
        rows = ", ".join(f"{r['first']} (bottom {r['bottom']} px)" for r in res["answer"]["rows"])
        print(f"  the answer table: rows {rows}")
    for p in res["problems"]:
        print("  " + p)
    if args.screenshot:
        print(f"screenshot: {args.screenshot}")
    return 1 if res["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
