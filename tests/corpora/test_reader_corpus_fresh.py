"""The fresh movies reader corpora of issue 37: the committed files are exactly what their
scripts write (`scripts/reader_corpus_fresh.py`: `chat_tuning4`, `chat_heldout2`;
`scripts/reader_corpus_fresh5.py`: `chat_tuning5`), and every line loads as a labelled message
whose titles are real catalog titles named in the text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from domains.movies.simulators.reader_score import LabelledMessage, load_corpus
from runner.core.paths import PROJECT_ROOT

# script: {folder: id prefix} of the parts it writes
SETS = {
    "reader_corpus_fresh.py": {"chat_tuning4": "c4t", "chat_heldout2": "c4h"},
    "reader_corpus_fresh5.py": {"chat_tuning5": "c5t"},
}
READER = PROJECT_ROOT / "corpora" / "reader"
CATALOG = PROJECT_ROOT / "catalog_pipeline" / "snapshots" / "2026-11-01" / "catalog.json"


@pytest.mark.parametrize("script", SETS)
def test_committed_files_are_what_the_script_writes(script: str, tmp_path: Path) -> None:
    path = PROJECT_ROOT / "scripts" / script
    subprocess.run([sys.executable, str(path), "--root", str(tmp_path)], check=True, timeout=120)
    assert sorted(p.name for p in (tmp_path / "corpora" / "reader").iterdir()) == sorted(
        SETS[script]
    )
    for folder in SETS[script]:
        for name in ("agent_messages.jsonl", "README.md"):
            written = (tmp_path / "corpora" / "reader" / folder / name).read_bytes()
            assert written == (READER / folder / name).read_bytes(), f"{folder}/{name} drifted"


def _messages(script: str) -> dict[str, list[LabelledMessage]]:
    return {f: load_corpus(READER / f / "agent_messages.jsonl") for f in SETS[script]}


@pytest.mark.parametrize("script", SETS)
def test_every_line_loads_with_unique_ids_and_its_parts_prefix(script: str) -> None:
    ids: list[str] = []
    for folder, messages in _messages(script).items():
        assert messages
        assert all(
            m.schema_version == 2 and m.id.startswith(SETS[script][folder]) for m in messages
        )
        ids += [m.id for m in messages]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("script", SETS)
def test_titles_are_catalog_titles_named_in_the_text(script: str) -> None:
    catalog = {m["id"]: m["title"] for m in json.loads(CATALOG.read_text(encoding="utf-8"))}
    for messages in _messages(script).values():
        for m in messages:
            assert not set(m.proposes) & set(m.watched), m.id
            for title_id in m.proposes + m.watched:
                assert catalog[title_id] in m.text, (m.id, title_id)


def test_no_message_text_is_in_two_parts() -> None:
    seen: dict[str, str] = {}
    for script in SETS:
        for folder, messages in _messages(script).items():
            for m in messages:
                assert seen.setdefault(m.text, folder) == folder, (m.id, seen[m.text])


def test_the_fifth_set_repeats_no_message_of_an_older_corpus() -> None:
    fifth = set(SETS["reader_corpus_fresh5.py"])
    older = {
        m.text
        for path in sorted(READER.glob("*/*.jsonl"))
        if path.parent.name not in fifth
        for m in load_corpus(path)
    }
    for messages in _messages("reader_corpus_fresh5.py").values():
        assert not [m.id for m in messages if m.text in older]
