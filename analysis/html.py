"""A small document model rendered two ways with the same content: Markdown (plots as PNG files
next to it) and one self-contained HTML file (plots embedded as base64 PNG, inline CSS, no
scripts or links: it opens offline)."""

from __future__ import annotations

import base64
import html
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass
class Block:
    kind: str  # heading, text, items, table, figure, code, open/close (a collapsible part;
    # an open with a level is a section whose heading is the summary: Document.section)
    data: Any
    level: int = 0
    caption: str = ""
    name: str = ""  # figure file name
    style: str = ""  # a table's class ("words": cells of words, aligned left)


@dataclass
class Document:
    """Headings, paragraphs, lists, tables (DataFrames of display strings) and figures."""

    title: str
    blocks: list[Block] = field(default_factory=list)

    def heading(self, text: str, level: int = 2) -> None:
        self.blocks.append(Block("heading", text, level))

    def text(self, text: str) -> None:
        self.blocks.append(Block("text", text))

    def items(self, lines: list[str]) -> None:
        self.blocks.append(Block("items", list(lines)))

    def code(self, text: str) -> None:
        self.blocks.append(Block("code", text))

    @contextmanager
    def details(self, summary: str) -> Iterator[Document]:
        """A collapsible part (<details> in both renderings, closed until clicked): the blocks
        added inside the `with` are its content, `summary` the line shown when closed."""
        self.blocks.append(Block("open", summary))
        try:
            yield self
        finally:
            self.blocks.append(Block("close", ""))

    @contextmanager
    def section(self, title: str, level: int = 2, closed: bool = False) -> Iterator[Document]:
        """A section: the blocks added inside the `with`, under a heading `title`; closed: a
        collapsible part whose summary is the heading (a report's detail after its answer,
        one line a section until opened)."""
        if not closed:
            self.heading(title, level)
            yield self
            return
        self.blocks.append(Block("open", title, level))
        try:
            yield self
        finally:
            self.blocks.append(Block("close", ""))

    def table(self, df: pd.DataFrame, caption: str = "", words: bool = False) -> None:
        """A table of display strings; words: cells of words, aligned left (numbers right)."""
        self.blocks.append(Block("table", df.astype(str), caption=caption, style="words" * words))

    def figure(self, fig: Figure, name: str, caption: str = "", dpi: int = 90) -> None:
        """Render a matplotlib figure to PNG bytes now (a matplotlib.figure.Figure, e.g. from
        analysis.plots.new_figure: it needs no backend and no closing)."""
        buf = io.BytesIO()
        fig.tight_layout()
        fig.savefig(buf, format="png", dpi=dpi)
        self.blocks.append(Block("figure", buf.getvalue(), caption=caption, name=name))

    # ------------------------------------------------------------------ Markdown
    def markdown(self, image_dir: Path | None = None) -> str:
        """Markdown text; figures are written as PNG files into image_dir (when given) and
        linked by file name."""
        out = [f"# {self.title}", ""]
        for b in self.blocks:
            if b.kind == "heading":
                out += ["#" * b.level + " " + b.data, ""]
            elif b.kind == "text":
                out += [b.data, ""]
            elif b.kind == "items":
                out += [f"- {line}" for line in b.data] + [""]
            elif b.kind == "code":
                out += ["```", b.data, "```", ""]
            elif b.kind == "open" and b.level:  # a section whose content is closed
                out += ["#" * b.level + " " + b.data, ""]
                out += ["<details>", f"<summary>{html.escape(b.data)}: the detail</summary>", ""]
            elif b.kind == "open":
                out += ["<details>", f"<summary>{html.escape(b.data)}</summary>", ""]
            elif b.kind == "close":
                out += ["</details>", ""]
            elif b.kind == "table":
                if b.caption:
                    out += [f"*{b.caption}*", ""]
                out += [_md_table(b.data), ""]
            elif b.kind == "figure":
                if image_dir is not None:
                    (image_dir / b.name).write_bytes(b.data)
                out += [f"![{b.caption or b.name}]({b.name})", ""]
                if b.caption:
                    out += [f"*{b.caption}*", ""]
        return "\n".join(out)

    # ------------------------------------------------------------------ HTML
    def html(self) -> str:
        """One self-contained HTML page (images inline as data: URIs)."""
        body = [f"<h1>{_inline(self.title)}</h1>"]
        for b in self.blocks:
            if b.kind == "heading":
                body.append(f"<h{b.level}>{_inline(b.data)}</h{b.level}>")
            elif b.kind == "text":
                body.append(f"<p>{_inline(b.data)}</p>")
            elif b.kind == "items":
                body.append("<ul>" + "".join(f"<li>{_inline(x)}</li>" for x in b.data) + "</ul>")
            elif b.kind == "code":
                body.append(f"<pre><code>{html.escape(b.data)}</code></pre>")
            elif b.kind == "open" and b.level:  # a section whose content is closed
                h = f"<h{b.level}>{_inline(b.data)}</h{b.level}>"
                body.append(f'<details class="section"><summary>{h}</summary>')
            elif b.kind == "open":
                body.append(f"<details><summary>{_inline(b.data)}</summary>")
            elif b.kind == "close":
                body.append("</details>")
            elif b.kind == "table":
                cap = f"<caption>{_inline(b.caption)}</caption>" if b.caption else ""
                head = "".join(f"<th>{html.escape(str(c))}</th>" for c in b.data.columns)
                rows = "".join(
                    "<tr>" + "".join(f"<td>{_inline(str(v))}</td>" for v in row) + "</tr>"
                    for row in b.data.itertuples(index=False)
                )
                cls = f' class="{b.style}"' if b.style else ""
                body.append(
                    f"<table{cls}>{cap}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
                )
            elif b.kind == "figure":
                data = base64.b64encode(b.data).decode("ascii")
                alt = html.escape(b.caption or b.name)
                cap = f"<figcaption>{_inline(b.caption)}</figcaption>" if b.caption else ""
                body.append(
                    f'<figure><img alt="{alt}" src="data:image/png;base64,{data}">{cap}</figure>'
                )
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(self.title)}</title><style>{_CSS}</style></head><body>"
            + "\n".join(body)
            + "</body></html>\n"
        )


_CSS = (
    "body{font-family:system-ui,sans-serif;max-width:1300px;margin:2em auto;padding:0 1em;"
    "color:#222;line-height:1.45}"
    "table{border-collapse:collapse;margin:.6em 0 1.2em;"
    "font-size:.85em}th,td{border:1px solid #ccc;padding:.25em .5em;text-align:right}"
    "th{background:#f2f2f2}td:first-child,th:first-child{text-align:left}"
    "caption{caption-side:top;font-style:italic;text-align:left;padding:.3em 0}"
    "figure{display:inline-block;margin:.5em 1em .5em 0;vertical-align:top}"
    "img{max-width:100%}figcaption{font-size:.8em;color:#555}"
    "code{background:#f4f4f4;padding:0 .2em}pre{background:#f4f4f4;padding:.6em;"
    "overflow-x:auto}h2{border-bottom:1px solid #ddd;margin-top:2em}"
    "details{margin:.4em 0 1em}summary{cursor:pointer;color:#335;font-weight:600}"
    "table{display:block;max-width:100%;overflow-x:auto}"
    "details.section>summary>h2{display:inline;border:none;margin:0}"
    "details.section{margin:.2em 0;border-bottom:1px solid #ddd}"
    "table.words td,table.words th{text-align:left;vertical-align:top}"
    # the first screen (1,400 x 800 px) holds the answer table of up to three player counts:
    # a one-line title, the answer's cells a little smaller (docs/robustness.md)
    "body{margin-top:1em}h1{font-size:1.6em;margin:.4em 0}"
    "table.words{font-size:.8em;line-height:1.3}"
)


def _inline(text: str) -> str:
    """Escape, then the Markdown inline marks the report uses: `code` and **bold**."""
    t = html.escape(text)
    t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
    t = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", t)
    return t


def _md_table(df: pd.DataFrame) -> str:
    def cell(v: object) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(c) for c in df.columns) + " |"]
    lines.append("|" + "|".join("---" for _ in df.columns) + "|")
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines)
