"""A site built from hostile strings (display name, contact, notes, agent and user messages, tool
arguments and results) prints them as text everywhere: in the pages, in the Markdown pages, and in
the search results mkdocs-material renders from its index."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import pytest

from runner.sitegen import BuildReport
from runner.sitegen.serve import serving
from tests.runner.sitegen.test_browser import Watch

from .conftest import site_of, world_of

# What any of the hostile strings would create if it were read as HTML or Markdown.
INJECTED = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) {
      if (a.name.startsWith('on')) bad.push(el.tagName + '[' + a.name + ']');
      if (/^\\s*javascript:/i.test(a.value) && (a.name === 'href' || a.name === 'src'))
        bad.push(el.tagName + '[' + a.name + '=' + a.value + ']');
    }
  }
  for (const el of document.querySelectorAll('img[src="x"], img[src="y"], iframe, svg[onload]'))
    bad.push(el.outerHTML.slice(0, 80));
  for (const s of document.scripts) if (s.textContent.includes('alert(')) bad.push('script');
  return bad;
}"""


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> BuildReport:
    root = tmp_path_factory.mktemp("hostile")
    return site_of(world_of(root, entries=2, tasks=3, trials=4, hostile=True), root)


class _Elements(HTMLParser):
    """Every element and attribute as the browser's parser would first see them."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}>")
            if name in ("href", "src") and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value}>")
        if tag == "iframe" or (tag == "img" and dict(attrs).get("src") in ("x", "y")):
            self.found.append(f"<{tag}>")
        self.in_script = tag == "script"

    def handle_data(self, data: str) -> None:
        if self.in_script and "alert(" in data:
            self.found.append("<script>alert(…)")

    def handle_endtag(self, tag: str) -> None:
        self.in_script = False


def test_no_built_page_holds_an_injected_element(hostile_site: BuildReport) -> None:
    pages = sorted(hostile_site.out.rglob("*.html"))
    trial_pages = [p for p in pages if "synthetic-agent-001" in p.as_posix()]
    assert trial_pages, "the hostile entry has trial pages"
    for page in pages:
        parser = _Elements()
        parser.feed(page.read_text(encoding="utf-8"))
        assert not parser.found, (page.relative_to(hostile_site.out), parser.found)
    # The strings are there, printed as text.
    body = trial_pages[0].read_text(encoding="utf-8")
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in body


def test_search_index_documents_arrive_escaped(hostile_site: BuildReport) -> None:
    index = json.loads((hostile_site.out / "search" / "search_index.json").read_text())
    hostile_docs = [d for d in index["docs"] if "alert(" in d["text"] + d["title"]]
    assert hostile_docs, "the hostile strings are searchable"
    # The theme keeps a few harmless tags of its own (<p>, <code>) in the text; none of ours.
    tag = re.compile(r"<\s*/?\s*(script|img|svg|iframe|a|style|textarea)\b|<!--", re.IGNORECASE)
    for doc in hostile_docs:
        for key in ("title", "text"):
            assert not tag.search(doc[key]), (doc["location"], key, tag.search(doc[key]))


@pytest.fixture(scope="module")
def hostile_url(hostile_site: BuildReport) -> Iterator[str]:
    with serving(hostile_site.out) as url:
        yield url


@pytest.mark.browser
def test_every_page_and_the_search_box_run_nothing(
    browser: Any, hostile_url: str, hostile_site: BuildReport
) -> None:
    watch = Watch(browser, hostile_url)
    page = watch.page
    rels = sorted(
        p.relative_to(hostile_site.out).as_posix() for p in hostile_site.out.rglob("*.html")
    )
    for rel in rels:
        page.goto(hostile_url + rel, wait_until="load")
        for button in page.locator("button.taurec-expand-all").all():
            button.click()  # open the transcripts, as a reader would
        assert page.evaluate(INJECTED) == [], rel
    # The search box: its results are rendered from the index as HTML. (Its tokenizer splits on
    # spaces and dashes only, so "alert(1)<…" is one token; these words start tokens.)
    page.goto(hostile_url + "index.html", wait_until="load")
    for query in ("onerror", "script"):
        box = page.locator("input.md-search__input")
        box.click()
        box.fill("")
        box.type(query, delay=20)
        page.wait_for_selector(".md-search-result__item", timeout=15_000)
        results = page.locator(".md-search-result").inner_text()
        assert "alert(" in results  # found, and shown as text
        page.wait_for_timeout(300)  # an injected <img onerror> would have fired by now
        assert page.evaluate(INJECTED) == [], query
        page.keyboard.press("Escape")
    assert watch.dialogs == [], watch.dialogs
    page.close()
