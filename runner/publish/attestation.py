"""A results folder as one archive anyone can rebuild, and the GitHub attestation that vouches for it.

The refresh workflow packs each results folder into a tar built only from the folder's files (sorted
names, fixed owner, mode and time), attests the tars with GitHub's artifact attestations (the
maintained `actions/attest-build-provenance`, signed through Sigstore), and records the
attestation in the ledger. Anyone holding the folder rebuilds the same bytes with
`results_archive` and asks GitHub, through `gh attestation verify`, whether the refresh workflow
of the repository signed them: no file of ours has to be trusted for that.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from runner.core.errors import TaurecError
from runner.submissions.links import LinkError

__all__ = [
    "ATTESTATION_URL",
    "REFRESH_WORKFLOW",
    "AttestationCheck",
    "archive_name",
    "refuse_linked_components",
    "repo_of",
    "results_archive",
    "results_files",
    "verify_with_gh",
]

# What `actions/attest-build-provenance` gives as its `attestation-url` output.
ATTESTATION_URL = re.compile(
    r"https://github\.com/(?P<repo>[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+)/attestations/(?P<id>[0-9]+)"
)
REFRESH_WORKFLOW = ".github/workflows/refresh.yml"
_SKIPPED = {".lock"}
_CHUNK = 1 << 20
GH_TIMEOUT_S = 120.0
# gh's words when it could not ask GitHub at all (no network, no login): not checked, not failed.
_OFFLINE_HINTS = (
    "dial tcp",
    "no such host",
    "connection refused",
    "network is unreachable",
    "i/o timeout",
    "tls handshake",
    "could not resolve",
    "authentication",
    "gh auth login",
    "gh_token",
    "http 401",
    "http 403",
)


def refuse_linked_components(path: Path | str) -> None:
    """LinkError unless every component of `path` (absolute, from the root) is a plain folder:
    a results path reached through a symlink anywhere is another folder wearing this one's name."""
    absolute = Path(os.path.abspath(path))
    current = Path(absolute.anchor)
    for part in absolute.parts[1:]:
        current = current / part
        try:
            info = current.lstat()
        except FileNotFoundError:
            return
        if stat.S_ISLNK(info.st_mode):
            raise LinkError(
                f"{current}: a symlink (to {os.readlink(current)}) on the way to {path}; the "
                "ledger vouches only for a results folder reached through plain folders"
            )


def results_files(folder: Path) -> list[tuple[str, Path]]:
    """The files the ledger and the archive cover: (relative POSIX name, path), sorted by name;
    the run's lock and dot files are left out."""
    found = []
    for path in folder.rglob("*"):
        relative = path.relative_to(folder).as_posix()
        if relative in _SKIPPED or any(p.startswith(".") for p in relative.split("/")):
            continue
        if path.is_file():
            found.append((relative, path))
    return sorted(found)


def archive_name(submission: str, folder: Path) -> str:
    """`<slug>--<results folder name>.tar`: one name per run, the same on every machine."""
    return f"{submission}--{folder.name}.tar"


def results_archive(folder: Path, out: Path) -> str:
    """Write the results folder as an uncompressed tar whose bytes depend only on the files'
    names and contents (mode 0644, owner 0, time 0, sorted); return its sha256."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as tar:
        for name, path in results_files(folder):
            info = tarfile.TarInfo(name)
            info.size = path.stat().st_size
            info.mode = 0o644
            info.mtime = 0
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            with path.open("rb") as fh:
                tar.addfile(info, fh)
    digest = hashlib.sha256()
    with out.open("rb") as fh:
        for block in iter(lambda: fh.read(_CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class AttestationCheck:
    """What `gh attestation verify` said: verified, failed, or not checked (and why)."""

    outcome: Literal["verified", "failed", "not checked"]
    detail: str


def _first_lines(text: str, limit: int = 3) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return " / ".join(lines[:limit])[:400]


def verify_with_gh(archive: Path, repo: str, gh: str | None = None) -> AttestationCheck:
    """Ask GitHub whether the refresh workflow of `repo` attested this archive's bytes.

    No `gh` on PATH, no network or no login is "not checked" (never a pass); any other refusal
    from gh is "failed", with gh's own words."""
    exe = gh or shutil.which("gh")
    if exe is None:
        return AttestationCheck(
            "not checked",
            "gh (the GitHub CLI) is not on PATH; install it and run `gh auth login`, or verify "
            f"by hand: gh attestation verify {archive.name} --repo {repo}",
        )
    command = [
        exe,
        "attestation",
        "verify",
        str(archive),
        "--repo",
        repo,
        "--signer-workflow",
        f"{repo}/{REFRESH_WORKFLOW}",
    ]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=GH_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        return AttestationCheck("not checked", f"gh gave no answer within {GH_TIMEOUT_S:.0f} s")
    except OSError as exc:
        return AttestationCheck("not checked", f"gh could not be started: {exc}")
    said = _first_lines(done.stderr or done.stdout)
    if done.returncode == 0:
        return AttestationCheck("verified", f"gh attestation verify --repo {repo}: ok")
    if any(hint in said.lower() for hint in _OFFLINE_HINTS):
        return AttestationCheck("not checked", f"gh could not ask GitHub: {said}")
    return AttestationCheck("failed", f"gh attestation verify --repo {repo} refused it: {said}")


def repo_of(url: str) -> str:
    """OWNER/REPO of an attestation URL (TaurecError if it is not one)."""
    match = ATTESTATION_URL.fullmatch(url)
    if match is None:
        raise TaurecError(
            f"attestation URL {url!r}: expected https://github.com/OWNER/REPO/attestations/ID "
            "(the attest action's attestation-url output)"
        )
    return match["repo"]
