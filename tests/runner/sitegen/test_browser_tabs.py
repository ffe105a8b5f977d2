"""No icon paints over the title of a collapsible tab (a <summary>): in a real Chromium, the box of
each title's text looks the same with and without the summary's ::before / ::after drawn."""

from __future__ import annotations

from typing import Any

import pytest

from runner.sitegen import BuildReport

pytestmark = pytest.mark.browser

# One of each kind of tab a page holds (at most `limit`): the summary, its text's box, and a key
# naming the kind (the classes of its <details> and of the list item around it).
_TABS = """(limit) => {
  const seen = new Set(), found = [];
  for (const s of document.querySelectorAll('summary')) {
    const d = s.closest('details');
    const key = (d.className || 'details') + '/' + ((d.parentElement.closest('li') || {}).className || '');
    if (seen.has(key)) continue;
    if (!d.open) d.open = true;
    let node = d.parentElement;  // open the ones it sits in too, so it is painted
    while (node) { if (node.tagName === 'DETAILS') node.open = true; node = node.parentElement; }
    s.scrollIntoView({block: 'center'});
    const text = [...s.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
    if (!text) continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    const r = range.getBoundingClientRect();
    if (r.width < 4 || r.height < 4) continue;
    seen.add(key);
    s.setAttribute('data-tab-check', String(found.length));
    found.push({key, label: text.textContent.trim()});
    if (found.length >= limit) break;
  }
  return found;
}"""
_BOX = """(i) => {
  const s = document.querySelector(`[data-tab-check="${i}"]`);
  s.scrollIntoView({block: 'center'});
  const text = [...s.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
  const range = document.createRange();
  range.selectNodeContents(text);
  const r = range.getBoundingClientRect();
  return {x: r.x, y: r.y, width: r.width, height: r.height};
}"""
# Hide every title's own glyphs (so only what else is painted there is left) and, in the second
# picture, the summaries' icons.
_NO_TEXT = "summary[data-tab-check] { color: transparent !important; }"
_NO_ICONS = (
    "summary[data-tab-check]::before, summary[data-tab-check]::after "
    "{ visibility: hidden !important; }"
)


def _overlapped_tabs(page: Any, limit: int) -> tuple[list[str], int]:
    tabs = page.evaluate(_TABS, limit)
    page.add_style_tag(content=_NO_TEXT)
    shots = []
    for i in range(len(tabs)):
        box = page.evaluate(_BOX, i)
        shots.append((box, page.screenshot(clip=box, animations="disabled")))
    page.add_style_tag(content=_NO_ICONS)
    overlapped = []
    for i, (box, before) in enumerate(shots):
        assert page.evaluate(_BOX, i) == box
        if page.screenshot(clip=box, animations="disabled") != before:
            overlapped.append(f"{tabs[i]['key']}: {tabs[i]['label']!r}")
    return overlapped, len(tabs)


@pytest.mark.parametrize(
    "path",
    [
        "trials/synthetic-agent-000/2026-11-01/task_001.html",
        "trials/synthetic-agent-001/2026-11-01/task_002.html",
        "entries/synthetic-agent-000.html",
    ],
)
def test_no_icon_paints_over_a_tab_title(
    chromium: Any, served: str, small_site: BuildReport, path: str
) -> None:
    assert (small_site.out / path).is_file()
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(served + path, wait_until="load")
        overlapped, checked = _overlapped_tabs(page, limit=8)
    finally:
        page.close()
    assert checked >= 2, f"{path}: too few tabs found to check"
    assert overlapped == [], f"{path}: an icon paints over these tab titles: {overlapped}"
