"""mkdocs hooks: pre-rendered HTML bodies for trial pages, and a small search entry per trial page.

Trial pages hold whole transcripts (often ~1 MB of escaped HTML each); running them through
Python-Markdown costs seconds per page for nothing, since their body is HTML already. Their
markdown source is just front matter with `taurec_body: <path>`, resolved against the folder
`<docs_dir>.bodies` beside the docs folder. They are kept out of the full-text index (it would
grow by their transcripts); instead each adds one short document (`taurec_search`: task id,
entry, snapshot, outcome) to `search/search_index.json`, so search finds a trial by task id.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

BODY_KEY = "taurec_body"
SEARCH_KEY = "taurec_search"

_trial_docs: list[dict[str, str]] = []


def bodies_dir(docs_dir: Path) -> Path:
    return docs_dir.parent / f"{docs_dir.name}.bodies"


def on_pre_build(config: Any) -> None:
    _trial_docs.clear()


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    text = page.meta.get(SEARCH_KEY)
    if text:
        _trial_docs.append({"location": page.url, "title": page.title or "", "text": str(text)})
    relative = page.meta.get(BODY_KEY)
    if not relative:
        return html
    root = bodies_dir(Path(config["docs_dir"])).resolve()
    body = (root / str(relative)).resolve()
    if root not in body.parents:
        raise ValueError(f"{page.file.src_uri}: {BODY_KEY} {relative!r} is outside {root}")
    return body.read_text(encoding="utf-8")


def on_post_build(config: Any) -> None:
    index = Path(config["site_dir"]) / "search" / "search_index.json"
    if not index.exists() or not _trial_docs:
        return
    data = json.loads(index.read_text(encoding="utf-8"))
    data["docs"].extend(sorted(_trial_docs, key=lambda d: d["location"]))
    index.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
