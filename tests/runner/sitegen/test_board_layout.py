"""The board as a reader sees it, in a real Chromium: on a laptop (1366×900) and a tablet the
headline pass^k, its interval and the badges are in view with nothing to scroll sideways; on a
phone (390×844) a column picker shows any column the board opens without, and remembers the
choice."""

from __future__ import annotations

from typing import Any

import pytest

from runner.sitegen.metric_table import HEADLINE, PHONE_COLUMNS, TABLET_COLUMNS, WIDE_COLUMNS

from .test_browser import Watch

pytestmark = pytest.mark.browser

VIEW = "section.taurec-snapshot-view:not([hidden])"
# The columns a table shows, by header key.
SHOWN = """t => [...t.querySelectorAll('thead th[data-key]')]
  .filter(th => th.getClientRects().length).map(th => th.dataset.key)"""
# Where each cell of a column sits: its box and its table's scrolling box, in page pixels.
CELLS = """(t, key) => {
  const heads = [...t.tHead.rows[0].cells];
  const i = heads.findIndex(th => th.dataset.key === key);
  return [...t.rows].filter(r => r.getClientRects().length).map(r => {
    const b = r.cells[i].getBoundingClientRect(), ci = r.cells[i].querySelector('.taurec-ci');
    return {left: b.left, right: b.right, width: b.width, text: r.cells[i].textContent.trim(),
            ci: ci ? ci.getBoundingClientRect().right : null};
  });
}"""


def _open_board(watch: Watch, base_url: str) -> Any:
    watch.page.goto(base_url + "index.html", wait_until="load")
    return watch.page.locator(f"{VIEW} table.taurec-board")


def test_a_laptop_sees_the_headline_its_interval_and_the_badges_without_scrolling(
    chromium: Any, served: str
) -> None:
    watch = Watch(chromium, served, (1366, 900))
    table = _open_board(watch, served)
    width = watch.page.evaluate("() => document.documentElement.clientWidth")
    box = table.evaluate("t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
    assert box[0] <= box[1], f"the ranked table is {box[0]} px in a {box[1]} px box"
    assert set(table.evaluate(SHOWN)) == set(WIDE_COLUMNS)
    for key in (HEADLINE, "badges", "cost"):
        cells = table.evaluate(CELLS, key)
        assert len(cells) == table.locator("tbody tr").count() + 1  # every row and the header
        for cell in cells:
            assert cell["width"] > 0, (key, cell)
            assert cell["left"] >= 0, (key, cell)
            assert cell["right"] <= width, (key, cell)
    headline = table.evaluate(CELLS, HEADLINE)[1:]
    assert all(c["ci"] is not None and c["ci"] <= width for c in headline), headline
    badges = table.evaluate(CELLS, "badges")[1:]
    assert all("verified" in c["text"] or "self-reported" in c["text"] for c in badges), badges
    # The reference rows use the same columns and fit the same way.
    reference = watch.page.locator(f"{VIEW} table.taurec-reference")
    box = reference.evaluate("t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
    assert box[0] <= box[1], f"the reference table is {box[0]} px in a {box[1]} px box"
    assert not watch.errors, watch.errors
    assert not watch.external, watch.external
    watch.page.close()


@pytest.mark.parametrize("width", [1024, 768])
def test_a_tablet_sees_every_pass_k_cost_and_badges_without_scrolling(
    chromium: Any, served: str, width: int
) -> None:
    watch = Watch(chromium, served, (width, 900))
    table = _open_board(watch, served)
    assert set(table.evaluate(SHOWN)) == set(TABLET_COLUMNS)
    for kind in ("board", "reference"):
        box = watch.page.locator(f"{VIEW} table.taurec-{kind}").evaluate(
            "t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]"
        )
        assert box[0] <= box[1], f"the {kind} table is {box[0]} px in a {box[1]} px box"
    assert not watch.errors, watch.errors
    watch.page.close()


def test_a_phone_picks_any_hidden_column_and_keeps_the_choice(chromium: Any, served: str) -> None:
    watch = Watch(chromium, served, (390, 844))
    page = watch.page
    table = _open_board(watch, served)
    assert table.evaluate(SHOWN) == list(PHONE_COLUMNS)
    box = table.evaluate("t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
    assert box[0] <= box[1]
    every = table.locator("thead th[data-key]").evaluate_all("ths => ths.map(th => th.dataset.key)")
    assert len(every) == 24
    picked = [k for k in every if k in {*PHONE_COLUMNS, "pass_4", "badges"}]

    # A disclosure (a real <details>/<summary>) with one labelled checkbox per column.
    picker = page.locator("details.taurec-columns")
    summary = picker.locator("summary")
    assert summary.is_visible()
    assert "3 of 24" in summary.inner_text()
    summary.click()
    boxes = picker.get_by_role("checkbox")
    assert boxes.count() == len(every)
    for key in every:
        box_for = picker.locator(f"input[value={key}]")
        assert box_for.is_checked() == (key in PHONE_COLUMNS), key
        label = box_for.evaluate("b => b.labels.length && b.labels[0].textContent.trim()")
        assert label, f"the checkbox for {key} has no label"

    # pass^4 and the badges, hidden on a phone, show in every row of every board table.
    picker.get_by_label("pass^4", exact=True).check()
    picker.get_by_label("Badges", exact=True).check()
    reference = page.locator(f"{VIEW} table.taurec-reference")
    for shown in (table, reference):
        assert shown.evaluate(SHOWN) == picked
        for key in ("pass_4", "badges"):
            cells = shown.evaluate(CELLS, key)
            assert all(c["width"] > 0 for c in cells), (key, cells)
    assert "5 of 24" in summary.inner_text()

    # Remembered across a reload and a visit to another page.
    page.reload(wait_until="load")
    assert table.evaluate(SHOWN) == picked
    page.goto(served + "methodology.html", wait_until="load")
    page.go_back(wait_until="load")
    assert table.evaluate(SHOWN) == picked

    # Show all, then back to the defaults; every other snapshot's tables follow.
    summary.click()
    picker.get_by_role("button", name="Show all").click()
    assert table.evaluate(SHOWN) == every
    page.select_option("select.taurec-snapshot-select", "2026-10-01")
    assert page.locator(f"{VIEW} table.taurec-board").evaluate(SHOWN) == every
    picker.get_by_role("button", name="Default columns").click()
    assert page.locator(f"{VIEW} table.taurec-board").evaluate(SHOWN) == list(PHONE_COLUMNS)
    page.reload(wait_until="load")
    assert page.locator(f"{VIEW} table.taurec-board").evaluate(SHOWN) == list(PHONE_COLUMNS)

    # A laptop keeps its own defaults: the phone's choice is not applied to a wider screen.
    page.set_viewport_size({"width": 1366, "height": 900})
    wide = [k for k in every if k in WIDE_COLUMNS]
    assert page.locator(f"{VIEW} table.taurec-board").evaluate(SHOWN) == wide
    assert not watch.errors, watch.errors
    assert not watch.external, watch.external
    page.close()
