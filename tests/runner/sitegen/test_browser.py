"""The built site in a real Chromium (Debian's, driven by playwright): loads clean, offline, safe."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from runner.sitegen import BuildReport
from runner.sitegen.serve import serving

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
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} missing: run `make browser-deps` (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def base_url(small_site: BuildReport) -> Iterator[str]:
    with serving(small_site.out) as url:
        yield url


class Watch:
    """A page that records console errors, page errors, dialogs and requests leaving 127.0.0.1."""

    def __init__(self, browser: Any, allowed_prefix: str) -> None:
        self.page = browser.new_page(viewport={"width": 1440, "height": 1000})
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
    browser: Any, base_url: str, small_site: BuildReport
) -> None:
    watch = Watch(browser, base_url)
    pages = sorted(p.relative_to(small_site.out).as_posix() for p in small_site.out.rglob("*.html"))
    assert len(pages) > 30
    for rel in pages:
        watch.page.goto(base_url + rel, wait_until="load")
        if watch.page.locator("div.taurec-chart").count():
            _charts_rendered(watch.page)
        assert not watch.errors, (rel, watch.errors)
    assert not watch.external, watch.external
    assert not watch.dialogs, watch.dialogs
    watch.page.close()


def test_leaderboard_charts_sorting_selector_and_probes(browser: Any, base_url: str) -> None:
    watch = Watch(browser, base_url)
    page = watch.page
    page.goto(base_url + "index.html", wait_until="load")
    _charts_rendered(page)
    visible = page.locator("section.taurec-snapshot-view:not([hidden])")
    assert visible.get_attribute("data-snapshot") == "2026-11-01"
    assert visible.locator("div.taurec-chart svg").count() == 6

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

    header = table.locator("thead th", has_text="pass^1")
    header.click()
    assert header.get_attribute("aria-sort") == "descending"
    assert column(4) == sorted(column(4), reverse=True)
    header.click()
    assert column(4) == sorted(column(4))
    latency = table.locator("thead th", has_text="latency")
    latency.click()
    assert column(12) == sorted(column(12), reverse=True)

    page.select_option("select.taurec-snapshot-select", "2026-10-01")
    visible = page.locator("section.taurec-snapshot-view:not([hidden])")
    assert visible.count() == 1
    assert visible.get_attribute("data-snapshot") == "2026-10-01"
    assert visible.locator("div.taurec-chart svg").count() == 6
    assert page.url.endswith("#snapshot=2026-10-01")
    page.goto(base_url + "index.html", wait_until="load")  # fresh, unsorted, for the artifact
    _charts_rendered(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "leaderboard.png"), full_page=True)
    assert not watch.errors
    assert not watch.external
    page.close()


def test_trial_page_shows_the_probe_message_as_text(browser: Any, base_url: str) -> None:
    watch = Watch(browser, base_url)
    watch.page.goto(base_url + "trials/synthetic-agent-001/2026-11-01/task_001.html")
    assert watch.page.get_by_text("<img src=x onerror=alert(1)>").first.is_visible()
    assert watch.dialogs == []
    assert not watch.errors
    watch.page.close()


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
