"""The fresh movies reader corpora of issue 37: the committed files are exactly what their
scripts write (`scripts/reader_corpus_fresh.py`: `chat_tuning4`, `chat_heldout2`;
`scripts/reader_corpus_fresh5.py`: `chat_tuning5`, `chat_heldout3`; `scripts/reader_corpus_fresh6.py`:
`chat_heldout4`; `scripts/reader_corpus_fresh7.py`: `chat_heldout5`), and every line loads as a labelled message
whose titles are real catalog titles named in the text."""

from __future__ import annotations

import hashlib
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
    "reader_corpus_fresh5.py": {"chat_tuning5": "c5t", "chat_heldout3": "c5h"},
    "reader_corpus_fresh6.py": {"chat_heldout4": "c6h"},
    "reader_corpus_fresh7.py": {"chat_heldout5": "c7h"},
}
PARTS5 = ("tuning", "heldout")  # the fifth set's shape files, reader_corpus_fresh5_<part>.txt
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


@pytest.mark.parametrize(
    "script", ["reader_corpus_fresh5.py", "reader_corpus_fresh6.py", "reader_corpus_fresh7.py"]
)
def test_a_later_set_repeats_no_message_of_another_corpus(script: str) -> None:
    own = set(SETS[script])
    others = {
        m.text
        for path in sorted(READER.glob("*/*.jsonl"))
        if path.parent.name not in own
        for m in load_corpus(path)
    }
    for messages in _messages(script).values():
        assert not [m.id for m in messages if m.text in others]


def test_the_fifth_sets_shape_files_are_its_seeded_split(tmp_path: Path) -> None:
    """Splitting the union of the two shape files again gives back the same two files, so the
    held-out shapes are the seeded draw the README describes, not a hand-picked set."""
    script = PROJECT_ROOT / "scripts" / "reader_corpus_fresh5.py"
    committed = [PROJECT_ROOT / "scripts" / f"reader_corpus_fresh5_{p}.txt" for p in PARTS5]
    union = tmp_path / "all.txt"
    union.write_text("".join(p.read_text(encoding="utf-8") for p in committed), encoding="utf-8")
    again = [tmp_path / f"{p}.txt" for p in PARTS5]
    options = ["--split", str(union), "--tuning-shapes", str(again[0])]
    subprocess.run(
        [sys.executable, str(script), *options, "--held-out-shapes", str(again[1])],
        check=True,
        timeout=120,
    )
    for mine, theirs in zip(again, committed, strict=True):
        lines = sorted(mine.read_text(encoding="utf-8").splitlines())
        assert lines == sorted(theirs.read_text(encoding="utf-8").splitlines()), theirs.name


SECOND_LABELLING = READER / "chat_heldout3" / "second_labelling"
# held-out set: its script, and its second labeller's blind labels (next to their frozen
# sha256) and decisions, in the set's second_labelling folder
SECOND_LABELLINGS = {
    "chat_heldout3": ("reader_corpus_fresh5.py", "blind_labels.jsonl", "adjudication.jsonl"),
    "chat_heldout4": ("reader_corpus_fresh6.py", "ra_blind.jsonl", "ra_adjudication.jsonl"),
    "chat_heldout5": ("reader_corpus_fresh7.py", "ra_blind.jsonl", "ra_adjudication.jsonl"),
}


@pytest.mark.parametrize("folder", SECOND_LABELLINGS)
def test_the_second_labellers_blind_labels_are_the_frozen_ones(folder: str) -> None:
    """The blind labels the agreement figures are computed from are byte for byte the ones
    frozen before the author's labels were opened."""
    blind = READER / folder / "second_labelling" / SECOND_LABELLINGS[folder][1]
    frozen, name = blind.with_name(blind.name + ".sha256").read_text().split()
    assert name == blind.name
    assert hashlib.sha256(blind.read_bytes()).hexdigest() == frozen


@pytest.mark.parametrize("folder", SECOND_LABELLINGS)
def test_the_held_out_part_carries_every_adjudicated_label(folder: str) -> None:
    script, _, adjudication = SECOND_LABELLINGS[folder]
    messages = {m.id: m.model_dump() for m in _messages(script)[folder]}
    path = READER / folder / "second_labelling" / adjudication
    decisions = [json.loads(line) for line in path.read_text().splitlines()]
    assert decisions
    for d in decisions:
        if d["decision"] == "drop":
            assert d["id"] not in messages, d
            continue
        label = messages[d["id"]][d["field"]]
        assert (sorted(label) if d["field"] == "acts" else label) == (
            sorted(d["label"]) if d["field"] == "acts" else d["label"]
        ), d


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"id": "c5h9999"}, "id 'c5h9999', field 'acts': no message of the part has this id"),
        ({"author": ["proposal"]}, "field 'acts': the author's label is"),
        ({"decision": "keep"}, "a kept label is the author's"),
        ({"field": "mood"}, "input_value='mood'"),
    ],
)
def test_a_decision_that_does_not_fit_the_held_out_part_is_refused(
    change: dict[str, object], error: str, tmp_path: Path
) -> None:
    lines = (SECOND_LABELLING / "adjudication.jsonl").read_text(encoding="utf-8").splitlines()
    changed = next(json.loads(x) for x in lines if json.loads(x)["decision"] == "change")
    bad = tmp_path / "adjudication.jsonl"
    bad.write_text(json.dumps({**changed, **change}) + "\n", encoding="utf-8")
    script = PROJECT_ROOT / "scripts" / "reader_corpus_fresh5.py"
    run = subprocess.run(
        [sys.executable, str(script), "--root", str(tmp_path), "--adjudication", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode != 0
    assert f"{bad}:1: " in run.stderr
    assert error in run.stderr


def test_a_dropped_message_leaves_the_held_out_part_and_its_counts(tmp_path: Path) -> None:
    """A message the rules do not decide is left out; every other message keeps its id and text."""
    drop = {
        "id": "c5h0133",
        "field": "acts",
        "author": ["preference_question"],
        "annotator": ["preference_question", "small_talk"],
        "decision": "drop",
        "label": None,
        "rule": "no rule decides it",
        "why": "both readings defensible",
    }
    adjudication = tmp_path / "adjudication.jsonl"
    adjudication.write_text(json.dumps(drop) + "\n", encoding="utf-8")
    script = PROJECT_ROOT / "scripts" / "reader_corpus_fresh5.py"
    options = ["--root", str(tmp_path), "--adjudication", str(adjudication)]
    subprocess.run([sys.executable, str(script), *options], check=True, timeout=120)
    folder = tmp_path / "corpora" / "reader" / "chat_heldout3"
    written = {m.id: m for m in load_corpus(folder / "agent_messages.jsonl")}
    committed = {m.id: m for m in _messages("reader_corpus_fresh5.py")["chat_heldout3"]}
    assert set(committed) - set(written) == {"c5h0133"}
    assert all(written[i].text == committed[i].text for i in written)
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert f"{len(committed) - 1} shapes in" in readme
    assert "kept 0, changed 0, dropped 1." in readme
