"""Every docs page of the built site, in a real Chromium at a laptop's and a phone's size, against
the markdown it was built from: no section lost or hidden, no raw Markdown (fences, `title="`) in
the text, no code outside a code block, nothing that makes the page scroll sideways, and board
tables that fit their box with the entry names readable."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from runner.core.paths import PROJECT_ROOT
from runner.sitegen import BuildReport
from runner.sitegen.mkdocs_hooks import BODY_KEY, bodies_dir

from .test_browser import VIEWPORTS

pytestmark = pytest.mark.browser

FENCE = re.compile(r"^(\s*)(```|~~~)")
MD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
HTML_HEADING = re.compile(r"<h([1-6])[^>]*>(.*?)</h\1>", re.DOTALL)
# Text outside code that only a failed Markdown conversion leaves behind.
ARTEFACTS = ("```", 'title="', "~~~")
# What the page shows of its text outside code blocks (and outside the permalink anchors).
PROSE = """() => {
  const root = document.querySelector('article.md-content__inner').cloneNode(true);
  root.querySelectorAll('pre, code, .headerlink, script, style').forEach(e => e.remove());
  return root.textContent;
}"""
HEADINGS = """() => [...document.querySelectorAll('article.md-content__inner :is(h1,h2,h3,h4,h5,h6)')]
  .map(h => { const c = h.cloneNode(true); c.querySelectorAll('.headerlink').forEach(a => a.remove());
              // shown, or in a board snapshot the selector shows
              const shown = h.getClientRects().length > 0 ||
                            h.closest('section.taurec-snapshot-view[hidden]') !== null;
              return [h.tagName.toLowerCase(), c.textContent.trim(), shown]; })"""
# How the page lays out: its own sideways scroll, and every table of the shown board snapshot
# (ranked, unranked, reference, exploit floors) against the box it scrolls in; each entry name's
# width in ems of its own font and its lines against its words (more lines than words = a word
# broken into pieces).
LAYOUT = """() => {
  const doc = document.documentElement;
  const tables = [...document.querySelectorAll('section.taurec-snapshot-view:not([hidden]) table')]
    .map(t => ({table: t.className, scroll: t.parentElement.scrollWidth, box: t.parentElement.clientWidth}));
  const names = [...document.querySelectorAll('section.taurec-snapshot-view:not([hidden]) td.taurec-entry-cell')]
    .filter(td => td.getClientRects().length)
    .map(td => { const a = td.querySelector('a'), words = a.textContent.trim().split(/\\s+/).length;
                 const lines = new Set([...a.getClientRects()].map(r => Math.round(r.top))).size;
                 return {name: a.textContent, ems: td.clientWidth / parseFloat(getComputedStyle(td).fontSize),
                         lines, words}; });
  return {scroll: doc.scrollWidth, width: doc.clientWidth, tables, names};
}"""


def _plain(text: str) -> str:
    """A heading's text as the page shows it: no inline markup, links reduced to their text."""
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\{[^}]*\}\s*$", "", text)  # attr_list, e.g. {#anchor}
    text = text.replace("`", "").replace("**", "").replace("*", "")
    text = text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    return " ".join(text.split())


class Source:
    """What one markdown file promises: its headings (by level) and how many code blocks."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.headings: list[tuple[int, str]] = []
        self.fences = 0
        inside: str | None = None
        lines = path.read_text(encoding="utf-8").splitlines()
        body = ""
        if lines and lines[0] == "---":  # front matter
            end = lines.index("---", 1)
            meta = yaml.safe_load("\n".join(lines[1:end])) or {}
            if BODY_KEY in meta:  # an HTML body spliced in by the mkdocs hook
                body = (bodies_dir(path.parent) / meta[BODY_KEY]).read_text(encoding="utf-8")
            lines = lines[end + 1 :]
        for line in lines:
            fence = FENCE.match(line)
            if fence:
                if inside is None:
                    inside = fence.group(2)
                    self.fences += 1
                elif fence.group(2) == inside:
                    inside = None
                continue
            if inside is not None:
                continue
            heading = MD_HEADING.match(line)
            if heading:
                self.headings.append((len(heading.group(1)), _plain(heading.group(2))))
        text = "\n".join(lines) + body
        self.headings += [(int(level), _plain(body)) for level, body in HTML_HEADING.findall(text)]


def _pages(site: BuildReport) -> list[Path]:
    """The docs pages: every top-level markdown page (entries and trials are generated views)."""
    return sorted(site.docs.glob("*.md"))


def test_the_readme_links_the_integrate_and_protocol_pages() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    for page in ("integrations.md", "http-agent-protocol.md"):
        assert f"](site/pages/{page})" in readme
        assert (PROJECT_ROOT / "site" / "pages" / page).is_file()


def test_the_docs_pages_include_the_hand_written_ones(small_site: BuildReport) -> None:
    names = {p.name for p in _pages(small_site)}
    assert {"integrations.md", "http-agent-protocol.md", "submit.md", "methodology.md"} <= names


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}px")
def test_every_docs_page_renders_its_sections_and_code(
    small_site: BuildReport, served: str, chromium: Any, viewport: tuple[int, int]
) -> None:
    problems: list[str] = []
    page = chromium.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    for path in _pages(small_site):
        source = Source(path)
        name = path.with_suffix(".html").name
        page.goto(served + name)
        headings = page.evaluate(HEADINGS)
        rendered = [(tag, text) for tag, text, _ in headings]
        h2 = {text for tag, text, shown in headings if tag == "h2" and shown}
        promised = {text for _, text in source.headings}
        for level, text in source.headings:
            if level == 2 and text not in h2:
                problems.append(f"{name}: section '## {text}' is not a shown h2 on the page")
        for tag, text in rendered:
            if text not in promised and tag != "h1":
                problems.append(f"{name}: {tag} {text!r} is no heading of {path.name}")
        prose = page.evaluate(PROSE)
        for artefact in ARTEFACTS:
            if artefact in prose:
                at = prose.index(artefact)
                problems.append(
                    f"{name}: {artefact!r} outside code: …{prose[at - 40 : at + 40]!r}…"
                )
        blocks = page.locator("article.md-content__inner pre").count()
        if blocks < source.fences:
            problems.append(f"{name}: {source.fences} code blocks in the source, {blocks} shown")
        layout = page.evaluate(LAYOUT)
        if layout["scroll"] > layout["width"]:
            problems.append(
                f"{name}: the page scrolls sideways ({layout['scroll']} px in {layout['width']})"
            )
        for table in layout["tables"]:
            if table["scroll"] > table["box"]:
                problems.append(
                    f"{name}: {table['table']} is {table['scroll']} px in a {table['box']} px box"
                )
        for cell in layout["names"]:
            if cell["ems"] < 10 or cell["lines"] > cell["words"]:
                problems.append(f"{name}: entry {cell['name']!r} squeezed: {cell}")
    page.close()
    assert not problems, "\n".join(problems)
