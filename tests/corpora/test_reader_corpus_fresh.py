"""The fresh movies reader corpus (issue 37): the committed files are exactly what
`scripts/reader_corpus_fresh.py` writes, and every line loads as a labelled message whose titles
are real catalog titles named in the text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from domains.movies.simulators.reader_score import LabelledMessage, load_corpus
from runner.core.paths import PROJECT_ROOT

PARTS = {"chat_tuning4": "c4t", "chat_heldout2": "c4h"}
READER = PROJECT_ROOT / "corpora" / "reader"
CATALOG = PROJECT_ROOT / "catalog_pipeline" / "snapshots" / "2026-11-01" / "catalog.json"


def test_committed_files_are_what_the_script_writes(tmp_path: Path) -> None:
    script = PROJECT_ROOT / "scripts" / "reader_corpus_fresh.py"
    subprocess.run([sys.executable, str(script), "--root", str(tmp_path)], check=True, timeout=120)
    for folder in PARTS:
        for name in ("agent_messages.jsonl", "README.md"):
            written = (tmp_path / "corpora" / "reader" / folder / name).read_bytes()
            assert written == (READER / folder / name).read_bytes(), f"{folder}/{name} drifted"


def _messages() -> dict[str, list[LabelledMessage]]:
    return {f: load_corpus(READER / f / "agent_messages.jsonl") for f in PARTS}


def test_every_line_loads_with_unique_ids_and_its_parts_prefix() -> None:
    ids: list[str] = []
    for folder, messages in _messages().items():
        assert messages
        assert all(m.schema_version == 2 and m.id.startswith(PARTS[folder]) for m in messages)
        ids += [m.id for m in messages]
    assert len(ids) == len(set(ids))


def test_titles_are_catalog_titles_named_in_the_text() -> None:
    catalog = {m["id"]: m["title"] for m in json.loads(CATALOG.read_text(encoding="utf-8"))}
    for messages in _messages().values():
        for m in messages:
            assert not set(m.proposes) & set(m.watched), m.id
            for title_id in m.proposes + m.watched:
                assert catalog[title_id] in m.text, (m.id, title_id)


def test_no_message_text_is_in_both_parts() -> None:
    tuning, held_out = ({m.text for m in ms} for ms in _messages().values())
    assert not tuning & held_out
