"""The refresh workflow's ledger: one line per run it produced, with digests - the only source of "verified".

`verified_by` in a run manifest is just text anyone can type. A run counts as verified only when
`submissions/ledger.jsonl` - written by the refresh workflow alone (CODEOWNERS, and the PR check
refuses edits to it) - holds an entry for its submission and snapshot whose catalog, task-suite,
policy and results-folder digests all match the folder as it is now, and that names the GitHub
artifact attestation of the folder's archive (see `runner.publish.attestation`). The ledger file
alone can be forged by anyone with write access; the attestation cannot, and `taurec ledger
check` asks GitHub about it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from runner.core.errors import LoadError, TaurecError
from runner.core.json_files import read_jsonl
from runner.core.paths import SUBMISSIONS_DIR
from runner.core.records import RunManifest
from runner.core.rules import RuleSetName
from runner.publish.attestation import (
    ATTESTATION_URL,
    archive_name,
    refuse_linked_components,
    repo_of,
    results_archive,
    verify_with_gh,
)
from runner.submissions.links import LinkError, refuse_links

__all__ = [
    "LEDGER_PATH",
    "Attestation",
    "LedgerEntry",
    "RunCheck",
    "check_run",
    "load_ledger",
    "record_runs",
    "results_digest",
    "verified_entry",
    "vouched_folders",
    "workflow_run_url",
    "write_archives",
]

LEDGER_FILE = "ledger.jsonl"
LEDGER_PATH = SUBMISSIONS_DIR / LEDGER_FILE
_SKIPPED = {".lock"}


class Attestation(BaseModel):
    """The GitHub artifact attestation of one run's results archive."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    url: str = Field(
        pattern=f"^{ATTESTATION_URL.pattern}$",  # whole: the site puts it in an href
        description="https://github.com/OWNER/REPO/attestations/ID (the attest action's output)",
    )
    archive: str = Field(description="file name of the attested archive (<slug>--<folder>.tar)")
    archive_sha256: str = Field(
        pattern=r"^[0-9a-f]{64}$", description="sha256 of the archive the attestation names"
    )

    @property
    def repo(self) -> str:
        return repo_of(self.url)


class LedgerEntry(BaseModel):
    """One run the refresh workflow produced, the digests that pin it, and its attestation.

    Version 1 entries (written before attestations) still load, but vouch for nothing."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    schema_version: Literal[1, 2] = 2
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
    attestation: Attestation | None = Field(
        default=None, description="the GitHub attestation of the results archive (version 2)"
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

    A folder holding (or reached through, at any component) a symlink or hard link is refused:
    the ledger would otherwise vouch for another entry's files.
    """
    refuse_linked_components(folder)
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
    return read_jsonl(path, LedgerEntry)


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
    *,
    attestation_url: str | None = None,
    archives: Path | None = None,
) -> list[LedgerEntry]:
    """Append one entry per results folder. Only a workflow run may do this: without its URL
    (GITHUB_ACTIONS and the run id), nothing is written; nor without the attestation URL of the
    results archives (the attest job's `attestation-url`), which must name the same repository.

    Each folder's archive is rebuilt; with `archives` (the folder of the attested tars) each
    rebuilt archive must equal the attested one byte for byte, else nothing is written."""
    run_url = workflow_run or workflow_run_url()
    if not run_url:
        raise TaurecError(
            f"{ledger}: only the refresh workflow records runs in the ledger "
            "(no GitHub Actions run URL in the environment); nothing written"
        )
    if not attestation_url:
        raise TaurecError(
            f"{ledger}: no attestation URL (--attestation-url or TAUREC_ATTESTATION_URL, the "
            "attest job's attestation-url output); a run is verified only with one; nothing written"
        )
    attested_repo = repo_of(attestation_url)
    if f"/{attested_repo}/actions/runs/" not in run_url:
        raise TaurecError(
            f"{ledger}: the attestation {attestation_url} is not from the repository of the "
            f"workflow run {run_url}; nothing written"
        )
    now = recorded_at or (
        dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    )
    entries = []
    with tempfile.TemporaryDirectory(prefix="taurec-ledger-") as scratch:
        for folder in folders:
            m = _manifest(folder)
            digest = results_digest(folder)
            name = archive_name(m.submission, Path(folder))
            archive_sha256 = results_archive(Path(folder), Path(scratch) / name)
            if archives is not None:
                _same_archive(archives / name, archive_sha256, folder)
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
                    results_sha256=digest,
                    attestation=Attestation(
                        url=attestation_url, archive=name, archive_sha256=archive_sha256
                    ),
                )
            )
    ledger.parent.mkdir(parents=True, exist_ok=True)
    with ledger.open("a", encoding="utf-8") as out:
        for entry in entries:
            out.write(json.dumps(entry.model_dump(mode="json"), sort_keys=False) + "\n")
    return entries


def _same_archive(attested: Path, rebuilt_sha256: str, folder: Path) -> None:
    if not attested.is_file():
        raise TaurecError(f"{attested}: no attested archive for {folder}; nothing written")
    digest = hashlib.sha256()
    with attested.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != rebuilt_sha256:
        raise TaurecError(
            f"{attested}: the attested archive differs from {folder} as it is now "
            f"(sha256 {digest.hexdigest()[:16]}… vs {rebuilt_sha256[:16]}…); nothing written"
        )


def verified_entry(
    folder: Path, manifest: RunManifest | None, ledger: list[LedgerEntry]
) -> LedgerEntry | None:
    """The latest ledger entry that vouches for this results folder as it is now, else None: its
    digests match and it names an attestation (an entry without one vouches for nothing).
    Whether GitHub confirms the attestation is `taurec ledger check`'s question (it needs gh and
    the network); the site links to it."""
    if manifest is None:
        return None
    candidates = [
        e
        for e in ledger
        if (e.submission, e.snapshot, e.rules)
        == (manifest.submission, manifest.snapshot, manifest.rules)
        and (e.catalog_digest, e.task_suite_digest, e.policy_digest)
        == (manifest.catalog_digest, manifest.task_suite_digest, manifest.policy_digest)
        and e.attestation is not None
    ]
    if not candidates:
        return None
    digest = results_digest(folder)
    matching = [e for e in candidates if e.results_sha256 == digest]
    return matching[-1] if matching else None


@dataclass(frozen=True)
class RunCheck:
    """What `check_run` found for one results folder."""

    folder: Path
    outcome: Literal["verified", "not verified", "attestation not checked"]
    detail: str


def check_run(
    folder: Path,
    ledger: list[LedgerEntry],
    repo: str | None = None,
    gh: str | None = None,
) -> RunCheck:
    """Whether the ledger vouches for this results folder and GitHub confirms the attestation.

    A path reached through a link is refused. The digests must match an entry that names an
    attestation; the folder's archive is rebuilt and must have the attested sha256; then `gh
    attestation verify` is asked (against `repo`, else the repository the attestation names).
    Without gh or the network the answer is "attestation not checked", never "verified"."""
    from runner.batch.store import read_manifest

    try:
        refuse_linked_components(folder)
        refuse_links(folder)
    except LinkError as exc:
        return RunCheck(folder, "not verified", f"refused: {exc}")
    found = verified_entry(folder, read_manifest(folder), ledger)
    if found is None or found.attestation is None:
        return RunCheck(
            folder,
            "not verified",
            "no ledger entry with these digests and an attestation",
        )
    attestation = found.attestation
    with tempfile.TemporaryDirectory(prefix="taurec-ledger-") as scratch:
        archive = Path(scratch) / attestation.archive
        rebuilt = results_archive(folder, archive)
        if rebuilt != attestation.archive_sha256:
            return RunCheck(
                folder,
                "not verified",
                f"the rebuilt archive {attestation.archive} has sha256 {rebuilt[:16]}…, the "
                f"attested one {attestation.archive_sha256[:16]}…",
            )
        asked = verify_with_gh(archive, repo or attestation.repo, gh)
    where = f"ledger entry from {found.workflow_run}, attestation {attestation.url}"
    if asked.outcome == "verified":
        return RunCheck(folder, "verified", f"{where}; {asked.detail}")
    if asked.outcome == "not checked":
        return RunCheck(
            folder,
            "attestation not checked",
            f"digests match the {where}; attestation not checked: {asked.detail}",
        )
    return RunCheck(folder, "not verified", f"{where}; {asked.detail}")


def write_archives(folders: list[Path], out: Path) -> list[tuple[Path, str]]:
    """Each results folder's archive under `out` (see `results_archive`), with its sha256; a
    path reached through a link is refused before anything is written."""
    for folder in folders:
        refuse_linked_components(folder)
        refuse_links(folder)
    written = []
    for folder in folders:
        path = out / archive_name(_manifest(folder).submission, folder)
        written.append((path, results_archive(folder, path)))
    return written


def vouched_folders(submissions_dir: Path, ledger: list[LedgerEntry]) -> list[Path]:
    """Every results folder under `submissions_dir` (`<slug>/results/<label>/`) that the ledger
    vouches for as it is now — what the site would call verified — so a deploy can ask GitHub
    about each. A folder behind a link is listed too (its check refuses it)."""
    from runner.batch.store import read_manifest

    found = []
    for results in sorted(Path(submissions_dir).glob("*/results")):
        for folder in sorted(p for p in results.iterdir() if not p.name.startswith(".")):
            if not folder.is_dir():
                continue
            try:
                if verified_entry(folder, read_manifest(folder), ledger) is not None:
                    found.append(folder)
            except LinkError:
                found.append(folder)
            except LoadError:
                continue  # not a results folder the site would show either
    return found
