"""The refresh workflow's ledger: one line per run it produced, with digests - the only source of "verified".

`verified_by` in a run manifest is just text anyone can type. A run counts as verified only when
`submissions/ledger.jsonl` - written by the refresh workflow alone (CODEOWNERS, and the PR check
refuses edits to it) - holds an entry for its submission and snapshot whose catalog, task-suite,
policy and results-folder digests all match the folder as it is now.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from runner.core.errors import LoadError, TaurecError, describe_validation_error
from runner.core.paths import SUBMISSIONS_DIR
from runner.core.records import RunManifest
from runner.core.rules import RuleSetName
from runner.submissions.links import refuse_links

__all__ = [
    "LEDGER_PATH",
    "LedgerEntry",
    "load_ledger",
    "record_runs",
    "results_digest",
    "verified_entry",
    "workflow_run_url",
]

LEDGER_FILE = "ledger.jsonl"
LEDGER_PATH = SUBMISSIONS_DIR / LEDGER_FILE
_SKIPPED = {".lock"}


class LedgerEntry(BaseModel):
    """One run the refresh workflow produced, and the digests that pin it."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    schema_version: Literal[1] = 1
    submission: str
    snapshot: str
    rules: RuleSetName
    workflow_run: str = Field(description="URL of the workflow run that produced the results")
    recorded_at: str
    catalog_digest: str
    task_suite_digest: str
    policy_digest: str
    results_sha256: str = Field(
        description="sha256 over every file of the results folder (path and content)"
    )


def workflow_run_url() -> str | None:
    """The GitHub Actions run this process is part of, else None (a local run)."""
    if os.environ.get("GITHUB_ACTIONS") != "true":
        return None
    parts = [os.environ.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID")]
    if not all(parts):
        return None
    server, repo, run_id = parts
    return f"{server}/{repo}/actions/runs/{run_id}"


def results_digest(folder: Path) -> str:
    """sha256 of the sorted (relative path, file sha256) list of a results folder.

    A folder holding (or reached through) a symlink or hard link is refused: the ledger would
    otherwise vouch for another entry's files.
    """
    refuse_links(folder)
    lines = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder).as_posix()
        if relative in _SKIPPED or relative.startswith("."):
            continue
        lines.append(f"{relative}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n")
    return hashlib.sha256("".join(lines).encode("utf-8")).hexdigest()


def load_ledger(path: Path = LEDGER_PATH) -> list[LedgerEntry]:
    """Every entry of the ledger (none if it does not exist); a bad line names file and line."""
    if not path.exists():
        return []
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entries.append(LedgerEntry.model_validate_json(line))
        except ValidationError as exc:
            raise LoadError(path, describe_validation_error(exc, f"line {number}: ")) from exc
    return entries


def _manifest(folder: Path) -> RunManifest:
    from runner.batch.store import read_manifest

    manifest = read_manifest(folder)
    if manifest is None:
        raise LoadError(folder, ["run.json: missing (not a results folder?)"])
    return manifest


def record_runs(
    folders: list[Path],
    ledger: Path = LEDGER_PATH,
    workflow_run: str | None = None,
    recorded_at: str | None = None,
) -> list[LedgerEntry]:
    """Append one entry per results folder. Only a workflow run may do this: without its URL
    (GITHUB_ACTIONS and the run id), nothing is written."""
    run_url = workflow_run or workflow_run_url()
    if not run_url:
        raise TaurecError(
            f"{ledger}: only the refresh workflow records runs in the ledger "
            "(no GitHub Actions run URL in the environment); nothing written"
        )
    now = recorded_at or (
        dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    )
    entries = []
    for folder in folders:
        m = _manifest(folder)
        entries.append(
            LedgerEntry(
                submission=m.submission,
                snapshot=m.snapshot,
                rules=m.rules,
                workflow_run=run_url,
                recorded_at=now,
                catalog_digest=m.catalog_digest,
                task_suite_digest=m.task_suite_digest,
                policy_digest=m.policy_digest,
                results_sha256=results_digest(folder),
            )
        )
    ledger.parent.mkdir(parents=True, exist_ok=True)
    with ledger.open("a", encoding="utf-8") as out:
        for entry in entries:
            out.write(json.dumps(entry.model_dump(mode="json"), sort_keys=False) + "\n")
    return entries


def verified_entry(
    folder: Path, manifest: RunManifest | None, ledger: list[LedgerEntry]
) -> LedgerEntry | None:
    """The latest ledger entry that vouches for this results folder as it is now, else None."""
    if manifest is None:
        return None
    candidates = [
        e
        for e in ledger
        if (e.submission, e.snapshot, e.rules)
        == (manifest.submission, manifest.snapshot, manifest.rules)
        and (e.catalog_digest, e.task_suite_digest, e.policy_digest)
        == (manifest.catalog_digest, manifest.task_suite_digest, manifest.policy_digest)
    ]
    if not candidates:
        return None
    digest = results_digest(folder)
    matching = [e for e in candidates if e.results_sha256 == digest]
    return matching[-1] if matching else None
