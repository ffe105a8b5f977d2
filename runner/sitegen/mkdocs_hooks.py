"""mkdocs hook: pages whose body is HTML already (home, entries) are spliced in, not re-parsed as Markdown.

Their markdown source is just front matter with `taurec_body: <path>`, resolved against the
folder `<docs_dir>.bodies` beside the docs folder; running such HTML through Python-Markdown
costs most of the build for nothing. (Trial pages are not mkdocs pages: see `trial_pages`.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

BODY_KEY = "taurec_body"


def bodies_dir(docs_dir: Path) -> Path:
    return docs_dir.parent / f"{docs_dir.name}.bodies"


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    relative = page.meta.get(BODY_KEY)
    if not relative:
        return html
    root = bodies_dir(Path(config["docs_dir"])).resolve()
    body = (root / str(relative)).resolve()
    if root not in body.parents:
        raise ValueError(f"{page.file.src_uri}: {BODY_KEY} {relative!r} is outside {root}")
    return body.read_text(encoding="utf-8")
