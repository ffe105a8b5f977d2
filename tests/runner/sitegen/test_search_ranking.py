"""Issue 24 (item 6): the site's search box ranks hand-written pages and entry pages above trial pages.

A site whose entries' names share words with the queries ("Exploit-policy-only", "Exploit-
interview"), so trial page titles match them too, typed into the real search box in Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from runner.sitegen import BuildReport
from runner.sitegen.serve import serving
from tests.runner.sitegen.test_browser import Watch

from .conftest import site_of, world_of

pytestmark = pytest.mark.browser

# The first result groups' links, in the order the search box lists them.
RESULTS = """() => [...document.querySelectorAll('.md-search-result__list > li > a')]
  .map(a => new URL(a.href).pathname.slice(1))"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> BuildReport:
    root = tmp_path_factory.mktemp("search")
    world = world_of(
        root,
        entries=3,
        tasks=6,
        trials=2,
        snapshots=("2026-11-01",),
        xss_probes=False,
        reference_entries=("exploit-policy-only", "exploit-interview"),
    )
    return site_of(world, root)


@pytest.fixture(scope="module")
def base_url(site: BuildReport) -> Iterator[str]:
    with serving(site.out) as url:
        yield url


def _search(browser: Any, base_url: str, query: str, shown: str | None = None) -> list[str]:
    watch = Watch(browser, base_url)
    page = watch.page
    page.goto(base_url + "index.html", wait_until="load")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator("input.md-search__input").press_sequentially(query, delay=30)
    # The list is redrawn per keystroke: read it once the meta line counts the full query's hits.
    page.wait_for_function(
        "() => document.querySelectorAll('.md-search-result__list > li').length > 0"
        " && /matching document/.test(document.querySelector('.md-search-result__meta').textContent)",
        timeout=15_000,
    )
    page.wait_for_function(
        "q => document.querySelector('input.md-search__input').value === q", arg=shown or query
    )
    results: list[str] = page.evaluate(RESULTS)
    assert not watch.errors, watch.errors
    assert not watch.external, watch.external
    page.close()
    return results


def _first_trial(results: list[str]) -> int:
    return next((i for i, r in enumerate(results) if r.startswith("trials/")), len(results))


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("exploit floor", None),
        ("pass", None),
        ("policy", None),
        ("Exploit-policy-only", "entries/reference-exploit-policy-only.html"),
        ("Synthetic agent 001", "entries/synthetic-agent-001.html"),
    ],
)
def test_hand_written_and_entry_pages_come_before_trial_pages(
    browser: Any, base_url: str, query: str, first: str | None
) -> None:
    results = _search(browser, base_url, query)
    assert results, query
    cut = _first_trial(results)
    assert cut > 0, (query, results)  # a page other than a trial page comes first
    assert all(r.startswith("trials/") for r in results[cut:]), (query, results)
    if first is not None:
        assert results[0] == first, (query, results)


def test_trial_pages_still_match_their_entry_and_task(browser: Any, base_url: str) -> None:
    results = _search(browser, base_url, "task_003 policy")
    trials = [r for r in results if r.startswith("trials/")]
    assert "trials/reference-exploit-policy-only/2026-11-01/task_003.html" in trials[:3], results


def test_a_caret_in_the_query_is_searched_as_a_space(browser: Any, base_url: str) -> None:
    # The theme hands "^k" to lunr as a boost, which throws and finds nothing; the box turns it
    # into a space, so "pass^k" finds the pages about pass^k, hand-written ones first.
    results = _search(browser, base_url, "pass^k", shown="pass k")
    assert results
    assert not results[0].startswith("trials/"), results
