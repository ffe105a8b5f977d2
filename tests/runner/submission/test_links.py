"""Borrowed results: a symlink or hard link under submissions/ is refused by the PR check and by
every reader (site inputs, merge, verify, ledger), each naming the path."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from domains.movies.site_synth import SynthSpec, SynthWorld, synthesize
from runner.batch.merge import merge_shards
from runner.publish.ledger import record_runs, results_digest
from runner.publish.rescore import verify_results
from runner.sitegen import load_inputs
from runner.submissions.config import check_submission
from runner.submissions.links import LinkError

SNAPSHOT = "2026-11-01"


@pytest.fixture
def world(tmp_path: Path) -> SynthWorld:
    """Two entries with results; `synthetic-agent-001` will try to borrow 000's."""
    spec = SynthSpec(entries=2, tasks=2, trials=4, snapshots=(SNAPSHOT,), xss_probes=False)
    return synthesize(tmp_path / "world", spec)


def _digests(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _borrow(world: SynthWorld) -> tuple[Path, Path]:
    """Replace the attacker's results/ with a symlink to the victim's; (attacker, victim) folders."""
    victim = world.submissions / "synthetic-agent-000"
    attacker = world.submissions / "synthetic-agent-001"
    shutil.rmtree(attacker / "results")
    (attacker / "results").symlink_to(Path("..") / victim.name / "results")
    return attacker, victim


def test_the_pr_check_refuses_a_symlinked_results_folder(world: SynthWorld) -> None:
    attacker, _ = _borrow(world)
    problems = [p for p in check_submission(attacker) if p.field == "(path)"]
    assert [p.file for p in problems] == [str(attacker / "results")]
    assert problems[0].reason.startswith("a symlink (to ../synthetic-agent-000/results)")


def test_the_pr_check_refuses_a_hard_linked_file(world: SynthWorld) -> None:
    victim = world.submissions / "synthetic-agent-000" / "results" / SNAPSHOT / "trials.jsonl"
    mine = world.submissions / "synthetic-agent-001" / "results" / SNAPSHOT / "trials.jsonl"
    mine.unlink()
    os.link(victim, mine)
    problems = [p for p in check_submission(mine.parents[2]) if p.field == "(path)"]
    assert sorted(p.file for p in problems) == [str(mine)]
    assert problems[0].reason.startswith("a hard link (2 names for one file)")
    # The victim's own folder names the shared file too.
    assert [p.file for p in check_submission(victim.parents[2]) if p.field == "(path)"] == [
        str(victim)
    ]


def test_an_entry_folder_that_is_a_symlink_is_an_error(world: SynthWorld) -> None:
    alias = world.submissions / "alias-agent"
    alias.symlink_to("synthetic-agent-000")
    problems = check_submission(alias)
    assert [(p.file, p.severity) for p in problems] == [(str(alias), "error")]
    assert problems[0].reason.startswith("a symlink (to synthetic-agent-000)")


def test_the_site_refuses_borrowed_results(world: SynthWorld) -> None:
    attacker, _ = _borrow(world)
    with pytest.raises(LinkError, match=f"{attacker / 'results'}: a symlink"):
        load_inputs(world.submissions, world.snapshots, world.tasks)


def test_the_site_refuses_a_symlinked_entry_folder(world: SynthWorld) -> None:
    (world.submissions / "alias-agent").symlink_to("synthetic-agent-000")
    with pytest.raises(LinkError, match="alias-agent: a symlink"):
        load_inputs(world.submissions, world.snapshots, world.tasks)


def test_merge_never_writes_through_a_link(world: SynthWorld, tmp_path: Path) -> None:
    attacker, victim = _borrow(world)
    shard = tmp_path / "shards" / "1"
    shutil.copytree(victim / "results" / SNAPSHOT, shard)
    before = _digests(victim / "results")
    with pytest.raises(LinkError, match=f"{attacker / 'results'}: a symlink"):
        merge_shards([shard], attacker / "results" / SNAPSHOT)
    assert _digests(victim / "results") == before


def test_merge_refuses_a_linked_shard(world: SynthWorld, tmp_path: Path) -> None:
    shard = tmp_path / "shards" / "1"
    shard.parent.mkdir()
    shard.symlink_to(world.submissions / "synthetic-agent-000" / "results" / SNAPSHOT)
    with pytest.raises(LinkError, match=f"{shard}: a symlink"):
        merge_shards([shard], tmp_path / "merged")


def test_verify_refuses_borrowed_results(world: SynthWorld) -> None:
    attacker, _ = _borrow(world)
    with pytest.raises(LinkError, match=f"{attacker / 'results'}: a symlink"):
        verify_results(attacker / "results" / SNAPSHOT, snapshots_dir=world.snapshots)


def test_the_ledger_refuses_borrowed_results(world: SynthWorld) -> None:
    attacker, _ = _borrow(world)
    run = attacker / "results" / SNAPSHOT
    with pytest.raises(LinkError, match=f"{attacker / 'results'}: a symlink"):
        results_digest(run)
    ledger = world.submissions / "ledger.jsonl"
    before = ledger.read_bytes() if ledger.exists() else b""
    with pytest.raises(LinkError):
        record_runs(
            [run],
            ledger,
            "https://github.com/o/r/actions/runs/1",
            "2026-11-02T00:00:00Z",
            attestation_url="https://github.com/o/r/attestations/7",
        )
    assert (ledger.read_bytes() if ledger.exists() else b"") == before


def test_the_ledger_refuses_a_hard_linked_file(world: SynthWorld) -> None:
    run = world.submissions / "synthetic-agent-001" / "results" / SNAPSHOT
    os.link(run / "run.json", world.root / "elsewhere.json")
    with pytest.raises(LinkError, match=r"run.json: a hard link \(2 names"):
        results_digest(run)
