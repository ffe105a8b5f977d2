"""The built site in a real Chromium (Debian's, driven by playwright): loads clean, offline, safe."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from runner.sitegen import BuildReport

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parents[3] / "test-artifacts"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def base_url(served: str) -> str:
    """The small site, served for this module (the conftest's `served`)."""
    return served


@pytest.fixture
def watch(browser: Any, base_url: str) -> Iterator[Watch]:
    """A fresh watched page (desktop size) on the small site, closed after the test."""
    watched = Watch(browser, base_url)
    yield watched
    watched.page.close()


class Watch:
    """A page that records console errors, page errors, dialogs and requests leaving 127.0.0.1."""

    def __init__(
        self, browser: Any, allowed_prefix: str, viewport: tuple[int, int] = (1440, 1000)
    ) -> None:
        self.page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        self.errors: list[str] = []
        self.external: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", self._dialog)
        # Observed, not routed: routing would switch the browser cache off and slow every page.
        self.page.on(
            "request",
            lambda r: None if r.url.startswith(allowed_prefix) else self.external.append(r.url),
        )

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()


def _charts_rendered(page: Any) -> None:
    page.wait_for_function(
        "() => [...document.querySelectorAll('div.taurec-chart')]"
        ".filter(e => e.offsetParent !== null)"
        ".every(e => e.getAttribute('data-rendered') === 'svg')",
        timeout=15_000,
    )


def test_every_page_loads_clean_and_offline(
    watch: Watch, base_url: str, small_site: BuildReport
) -> None:
    pages = sorted(p.relative_to(small_site.out).as_posix() for p in small_site.out.rglob("*.html"))
    assert len(pages) > 30
    for rel in pages:
        watch.page.goto(base_url + rel, wait_until="load")
        if watch.page.locator("div.taurec-chart").count():
            _charts_rendered(watch.page)
        assert not watch.errors, (rel, watch.errors)
    assert not watch.external, watch.external
    assert not watch.dialogs, watch.dialogs


def test_leaderboard_charts_sorting_selector_and_probes(watch: Watch, base_url: str) -> None:
    page = watch.page
    page.goto(base_url + "index.html", wait_until="load")
    _charts_rendered(page)
    visible = page.locator("section.taurec-snapshot-view:not([hidden])")
    assert visible.get_attribute("data-snapshot") == "2026-11-01"
    assert visible.locator("div.taurec-chart svg").count() == 7  # release-date chart included

    # The probe name shows as text and nothing fired.
    assert page.get_by_text("<script>alert(1)</script>").first.is_visible()
    assert watch.dialogs == []
    assert page.evaluate("() => document.querySelectorAll('img[src=\"x\"]').length") == 0

    table = visible.locator("table.taurec-board")

    def column(index: int) -> list[float]:
        values = table.locator(f"tbody tr td:nth-child({index})").evaluate_all(
            "cells => cells.map(c => c.getAttribute('data-value'))"
        )
        return [float(v) for v in values if v]

    header = table.locator("thead th[data-key=pass_1]")
    header.click()
    assert header.get_attribute("aria-sort") == "descending"
    assert column(4) == sorted(column(4), reverse=True)
    header.click()
    assert column(4) == sorted(column(4))
    latency = table.locator("thead th[data-key=latency]")
    latency.click()
    assert column(12) == sorted(column(12), reverse=True)

    page.select_option("select.taurec-snapshot-select", "2026-10-01")
    visible = page.locator("section.taurec-snapshot-view:not([hidden])")
    assert visible.count() == 1
    assert visible.get_attribute("data-snapshot") == "2026-10-01"
    assert visible.locator("div.taurec-chart svg").count() == 7
    assert "snapshot=2026-10-01" in page.url
    page.goto(base_url + "index.html", wait_until="load")  # fresh, unsorted, for the artifact
    _charts_rendered(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "leaderboard.png"), full_page=True)
    assert not watch.errors
    assert not watch.external


def test_trial_page_shows_the_probe_message_as_text(watch: Watch, base_url: str) -> None:
    watch.page.goto(base_url + "trials/synthetic-agent-001/2026-11-01/task_001.html")
    watch.page.click("button.taurec-expand-all")  # transcripts start collapsed
    assert watch.page.get_by_text("<img src=x onerror=alert(1)>").first.is_visible()
    assert watch.dialogs == []
    assert not watch.errors


def test_site_works_from_file_urls(browser: Any, small_site: BuildReport, tmp_path: Path) -> None:
    copy = tmp_path / "public"
    shutil.copytree(small_site.out, copy)
    watch = Watch(browser, "file://")
    watch.page.goto(copy.joinpath("index.html").as_uri())
    _charts_rendered(watch.page)
    assert watch.page.locator("section.taurec-snapshot-view:not([hidden]) svg").count() >= 6
    watch.page.click("a.taurec-entry-link >> nth=0")
    watch.page.wait_for_load_state("load")
    assert "/entries/" in watch.page.url
    _charts_rendered(watch.page)
    assert not watch.external
    assert not watch.dialogs
    watch.page.close()


VIEWPORTS = [(1366, 900), (390, 844)]
PAGE_TYPES = [
    "index.html",
    "entries/synthetic-agent-000.html",
    "trials/synthetic-agent-000/2026-11-01/task_001.html",
    "tasks.html",
    "snapshots.html",
    "changelog.html",
    "submit.html",
    "submission-schema.html",
    "methodology.html",
    "http-agent-protocol.html",
    "404.html",
]
# Elements sticking out past the right edge that no scrolling box of theirs clips.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 1) continue;
    let p = el, clipped = false;
    while ((p = p.parentElement)) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') { clipped = true; break; }
    }
    if (!clipped) out.push(el.tagName + '.' + el.className);
  }
  return {scroll: document.documentElement.scrollWidth, width, out: out.slice(0, 5)};
}"""
SMALLEST_CHART_TEXT = """() => Math.min(...[...document.querySelectorAll('div.taurec-chart svg text')]
  .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0)
  .map(t => parseFloat(getComputedStyle(t).fontSize)))"""


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}px")
def test_every_page_type_fits_and_reads_at_desktop_and_phone_width(
    browser: Any, base_url: str, viewport: tuple[int, int], small_site: BuildReport
) -> None:
    watch = Watch(browser, base_url, viewport)
    page = watch.page
    card = min((small_site.out / "catalog").rglob("*.html"))  # a catalog card
    for rel in [*PAGE_TYPES, card.relative_to(small_site.out).as_posix()]:
        page.goto(base_url + rel, wait_until="load")
        if page.locator("div.taurec-chart").count():
            _charts_rendered(page)
            smallest = page.evaluate(SMALLEST_CHART_TEXT)
            assert smallest >= 10, (rel, viewport, smallest)
        overflow = page.evaluate(OVERFLOW)
        assert overflow["scroll"] <= overflow["width"], (rel, overflow)
        assert not overflow["out"], (rel, overflow)
        assert not watch.errors, (rel, watch.errors)
    # Phones keep rank, entry and pass^1 of every board row in view.
    page.goto(base_url + "index.html", wait_until="load")
    table = page.locator("section.taurec-snapshot-view:not([hidden]) table.taurec-board")
    for key in ("rank", "entry", "pass_1"):
        assert table.locator(f"thead th[data-key={key}]").is_visible()
    if viewport[0] < 600:
        assert not table.locator("thead th[data-key=cost]").is_visible()
    page.screenshot(path=str(ARTIFACTS / f"leaderboard-{viewport[0]}px.png"), full_page=True)
    assert not watch.external
    page.close()


def test_filters_and_sort_come_from_the_address(watch: Watch, base_url: str) -> None:
    page = watch.page
    page.goto(base_url + "index.html#snapshot=2026-10-01&open=1&sort=pass_1:asc", wait_until="load")
    view = page.locator("section.taurec-snapshot-view:not([hidden])")
    assert view.get_attribute("data-snapshot") == "2026-10-01"
    assert page.locator("input.taurec-filter[name=open]").is_checked()
    rows = view.locator("table.taurec-board tbody tr")
    shown = [r for r in rows.all() if r.is_visible()]
    assert shown
    assert all(r.get_attribute("data-open") == "1" for r in shown)
    assert len(shown) < rows.count()  # the closed-weights entry is hidden
    values = [float(r.locator("td").nth(3).get_attribute("data-value") or "nan") for r in shown]
    assert values == sorted(values)
    header = view.locator("table.taurec-board thead th[data-key=pass_1]")
    assert header.get_attribute("aria-sort") == "ascending"
    # Changing a filter rewrites the address, so the view can be shared.
    page.select_option("select.taurec-filter[name=track]", "custom")
    assert "track=custom" in page.url
    assert "open=1" in page.url
    assert view.locator(".taurec-filter-empty").is_visible()  # no custom open-weights entry
    # Reference rows are shown apart from the ranking, never in it.
    board_slugs = view.locator("table.taurec-board tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.slug)"
    )
    refs = view.locator("table.taurec-reference tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.slug)"
    )
    assert sorted(refs) == ["reference-exploit-interview", "reference-oracle", "reference-random"]
    assert not set(refs) & set(board_slugs)
    assert not watch.errors


def test_trial_page_jump_bar_and_collapsed_transcripts(browser: Any, base_url: str) -> None:
    watch = Watch(browser, base_url, (390, 844))
    page = watch.page
    page.goto(base_url + "trials/synthetic-agent-000/2026-11-01/task_002.html", wait_until="load")
    transcripts = page.locator("details.taurec-transcript")
    assert transcripts.count() == 4
    assert transcripts.evaluate_all("ds => ds.filter(d => d.open).length") == 0
    bar = page.locator("nav.taurec-jumpbar")
    bar.locator("a", has_text="3").click()
    assert page.url.endswith("#trial-3")
    assert page.locator("#trial-3").is_visible()
    bar.locator("button.taurec-expand-all").click()
    assert transcripts.evaluate_all("ds => ds.filter(d => d.open).length") == 4
    page.goto(base_url + "trials/synthetic-agent-000/2026-11-01/task_001.html#trial-2")
    assert page.locator("#trial-2 details.taurec-transcript").evaluate("d => d.open")
    assert not watch.errors
    page.close()


def test_search_finds_a_trial_by_task_id(watch: Watch, base_url: str) -> None:
    page = watch.page
    page.goto(base_url + "index.html", wait_until="load")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator("input.md-search__input").press_sequentially("task_003", delay=30)
    hit = page.locator(
        ".md-search-result__item a[href*='trials/synthetic-agent-000/2026-11-01/task_003.html']"
    )
    hit.first.wait_for(timeout=15_000)
    hit.first.click()
    page.wait_for_load_state("load")
    assert "trials/synthetic-agent-000/2026-11-01/task_003.html" in page.url
    assert not watch.errors


def test_a_repeated_tool_result_is_printed_once_and_linked(
    browser: Any, base_url: str, small_site: BuildReport
) -> None:
    pages = sorted((small_site.out / "trials").rglob("*.html"))
    page_with_link = next(p for p in pages if "taurec-same-result" in p.read_text())
    html = page_with_link.read_text()
    watch = Watch(browser, base_url, (390, 844))
    page = watch.page
    page.goto(base_url + page_with_link.relative_to(small_site.out).as_posix(), wait_until="load")
    link = page.locator("a.taurec-same-result").first
    target = (link.get_attribute("href") or "").lstrip("#")
    assert html.count(f'id="{target}"') == 1  # the shared result is on the page once
    page.click("button.taurec-expand-all")
    link.click()
    assert page.locator(f"#{target}").evaluate("d => d.open")
    assert page.locator(f"#{target} pre").is_visible()
    assert not watch.errors
    page.close()
