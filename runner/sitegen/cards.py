"""Catalog cards: every title a trial page quotes gets one card per snapshot, and tool results link to it instead of repeating it.

A tool result object naming a catalog id (`{"id": "tmdb_12", "title": …, "overview": …}`) is
replaced, on the page, by a link to that title's card plus the names of the fields it carried;
only fields whose values equal the snapshot's are replaced (anything else stays as printed), so
the page loses nothing a reader cannot read on the card. TMDB-sourced snapshots have no cards:
their fields are TMDB's data, so the link goes where the domain says the item can be read
(`Domain.item_url`: TMDB's page) and names the fields without their values; what a search
result's field sets are called comes from the domain too (`Domain.result_shapes`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from markupsafe import Markup

from runner.core.domain import Domain
from runner.core.domains import get_domain
from runner.sitegen.escaping import html_text
from runner.sitegen.inputs import SnapshotInfo

CARDS_DIR = "catalog"
_MARK = "\u00a7card\u00a7"
# A marker as it reads once the JSON is escaped as element text: "§card§<id>§<fields>§", quotes included.
_MARKER = re.compile('"' + _MARK + r"([A-Za-z0-9_.-]+)" + _MARK + r"([a-z_,]*)" + _MARK + '"')


def card_path(snapshot: str, item_id: str) -> str:
    """Where a title's card lives, relative to the site root."""
    return f"{CARDS_DIR}/{snapshot}/{item_id}.html"


@dataclass
class Cards:
    """The catalog of one snapshot, as JSON records, and the ids its pages have linked so far."""

    snapshot: SnapshotInfo | None
    used: set[str] = field(default_factory=set)
    _records: dict[str, dict[str, Any]] | None = None
    _titles: dict[str, str] | None = None
    # What each card marker became, by (id, fields, depth): a run's pages quote the same titles
    # thousands of times. A hit has nothing left to record: its id is in `used` already.
    _quotes: dict[tuple[str, str, str], str] = field(default_factory=dict)

    @cached_property
    def owner(self) -> Domain | None:
        """The snapshot's domain (None without a snapshot)."""
        return None if self.snapshot is None else get_domain(self.snapshot.domain)

    @property
    def published(self) -> bool:
        """Cards are published for our own catalogs, never for TMDB's."""
        return self.snapshot is not None and not self.snapshot.from_tmdb

    def record(self, item_id: str) -> dict[str, Any] | None:
        if self.snapshot is None:
            return None
        if self._records is None:
            self._records = {i.id: i.model_dump(mode="json") for i in self.snapshot.catalog}
        return self._records.get(item_id)

    def title(self, item_id: str) -> str:
        """The item's title as its domain names it (movies: the title field)."""
        if self.snapshot is None:
            return ""
        if self._titles is None:
            owner = get_domain(self.snapshot.domain)
            self._titles = {i.id: owner.item_title(i) for i in self.snapshot.catalog}
        return self._titles.get(item_id, "")

    def link(self, item_id: str, depth: str) -> Markup:
        """An id (with its title when published) linking to its card, or to TMDB; unknown ids stay text."""
        record = self.record(item_id)
        if record is None or self.snapshot is None:
            return Markup("<code>{}</code>").format(item_id)
        if self.published:
            self.used.add(item_id)
            href = f"{depth}{card_path(self.snapshot.label, item_id)}"
            return Markup('<a href="{}">{} · {}</a>').format(href, item_id, self.title(item_id))
        url = self.owner.item_url(item_id) if self.owner is not None else None
        if url is None:
            return Markup("<code>{}</code>").format(item_id)
        return Markup(
            '<a class="taurec-card-link" href="{}" rel="nofollow noopener">{}</a>'
        ).format(url, item_id)

    def _compact(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self._compact(v) for v in value]
        if not isinstance(value, dict):
            return value
        item_id = value.get("id")
        record = self.record(item_id) if isinstance(item_id, str) else None
        if record is None:
            return {k: self._compact(v) for k, v in value.items()}
        quoted = [k for k, v in value.items() if k != "id" and k in record and record[k] == v]
        if not quoted:
            return {k: self._compact(v) for k, v in value.items()}
        rest = {k: self._compact(v) for k, v in value.items() if k != "id" and k not in quoted}
        mark = f"{_MARK}{item_id}{_MARK}{','.join(quoted)}{_MARK}"
        return mark if not rest else {"card": mark, **rest}

    def result_html(self, text: str, depth: str) -> Markup:
        """A tool result as the page prints it: pretty JSON with catalog quotes as card links."""
        try:
            value = json.loads(text)
        except ValueError:
            return html_text(text)
        if _MARK in text:  # never let a result forge a card link
            return html_text(json.dumps(value, ensure_ascii=False, indent=2))
        compact = self._compact(value)
        head = ""
        shape = _common_shape(compact)
        if shape is not None:  # a list of titles of one shape (a search): named once, on top
            noun = self.owner.card_noun if self.owner is not None else "item"
            head = f"{len(compact)} {noun}s, each: {self._what(shape)}\n"
            compact = [f"{_MARK}{m.split(_MARK)[1]}{_MARK}{_MARK}" for m in compact]
        pretty = json.dumps(compact, ensure_ascii=False, indent=2)

        def link(match: re.Match[str]) -> str:
            return self._quote(match.group(1), match.group(2), depth)

        return Markup(str(html_text(head)) + _MARKER.sub(link, str(html_text(pretty))))

    def _quote(self, item_id: str, fields: str, depth: str) -> str:
        """A card marker as the page prints it: the link, then what the quote carried."""
        key = (item_id, fields, depth)
        quoted = self._quotes.get(key)
        if quoted is None:
            card = self.link(item_id, depth)
            if fields:
                card += Markup(" ({})").format(self._what(fields))
            quoted = self._quotes[key] = str(card)
        return quoted

    def _what(self, fields: str) -> str:
        """What a quote carried: its shape's name, or its fields; TMDB's values are not republished."""
        names = fields.split(",")
        shapes = self.owner.result_shapes() if self.owner is not None else {}
        what = shapes.get(frozenset(names)) or ", ".join(names)
        return what if self.published else what + ": TMDB data, not republished"


def _common_shape(value: Any) -> str | None:
    """The field list every item of a list of two or more card marks shares, if one does."""
    if not isinstance(value, list) or len(value) < 2:
        return None
    shapes = set()
    for item in value:
        if not isinstance(item, str) or not item.startswith(_MARK):
            return None
        shapes.add(item.split(_MARK)[2])
    return shapes.pop() if len(shapes) == 1 else None


def write_cards(
    env: Any,
    out: Path,
    snapshot: SnapshotInfo,
    ids: set[str],
    css: list[str],
    asset_root: str = "../../",
) -> int:
    """One lean page per linked title of a published snapshot, under `out` (the board's root);
    returns how many. `asset_root` leads from a card to the site root's assets."""
    if snapshot.from_tmdb or not ids:
        return 0
    template = env.get_template("card_page.html.j2")
    folder = out / CARDS_DIR / snapshot.label
    folder.mkdir(parents=True, exist_ok=True)
    owner = get_domain(snapshot.domain)
    count = 0
    for item_id in sorted(ids):
        item = snapshot.catalog.get(item_id)
        if item is None:
            continue
        (folder / f"{item_id}.html").write_text(
            template.render(
                item=owner.item_card(item),
                title=owner.item_title(item),
                noun=owner.card_noun,
                snapshot=snapshot.label,
                css=css,
                root="../../",
                asset_root=asset_root,
            ),
            encoding="utf-8",
        )
        count += 1
    return count
