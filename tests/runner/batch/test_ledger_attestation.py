""" "Verified" rests on GitHub's attestation of a rebuilt archive, not on the ledger file alone.

`gh` here is a real executable put first on PATH that answers as gh does (its exit status and its
words); what the test checks is how `ledger check` treats each answer and what it asks gh.
"""

from __future__ import annotations

import json
import os
import stat
import tarfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from domains.movies.site_synth import SynthSpec, SynthWorld, synthesize
from runner.cli import cli
from runner.core.errors import TaurecError
from runner.publish.attestation import results_archive
from runner.publish.ledger import LEDGER_FILE, load_ledger, record_runs, write_archives
from runner.sitegen.inputs import load_inputs
from runner.sitegen.views import badges_for
from runner.submissions.links import LinkError

SNAPSHOT = "2026-11-01"
RUN_URL = "https://github.com/acme/taurec/actions/runs/999"
ATTESTED = "https://github.com/acme/taurec/attestations/31337"


@pytest.fixture
def world(tmp_path: Path) -> SynthWorld:
    """Two entries with results and no ledger yet."""
    spec = SynthSpec(
        entries=2,
        tasks=2,
        trials=2,
        snapshots=(SNAPSHOT,),
        xss_probes=False,
        verified_entries=set(),
    )
    return synthesize(tmp_path / "world", spec)


def _run(world: SynthWorld, index: int = 0) -> Path:
    return world.submissions / world.slugs[index] / "results" / SNAPSHOT


def _gh(tmp_path: Path, status: int, says: str) -> Path:
    """A folder holding an executable `gh` that logs its arguments and answers `says`."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    gh = folder / "gh"
    log = tmp_path / "gh-args.txt"
    gh.write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$@" > {log}\necho {json.dumps(says)} >&2\nexit {status}\n'
    )
    gh.chmod(gh.stat().st_mode | stat.S_IXUSR)
    return folder


def _check(world: SynthWorld, path_dir: Path, *folders: Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli,
        [
            "ledger",
            "check",
            *map(str, folders),
            "--ledger",
            str(world.submissions / LEDGER_FILE),
        ],
        env={"PATH": str(path_dir)},
    )
    return result.exit_code, result.output


def test_the_archive_depends_only_on_names_and_contents(world: SynthWorld, tmp_path: Path) -> None:
    run = _run(world)
    first = results_archive(run, tmp_path / "a.tar")
    for path in run.rglob("*"):
        os.utime(path, (1, 1))
        path.chmod(0o700 if path.is_dir() else 0o600)
    assert results_archive(run, tmp_path / "b.tar") == first
    assert (tmp_path / "a.tar").read_bytes() == (tmp_path / "b.tar").read_bytes()
    with tarfile.open(tmp_path / "a.tar") as tar:
        names = tar.getnames()
        assert {m.mtime for m in tar.getmembers()} == {0}
    assert "run.json" in names
    assert "trials.jsonl" in names
    assert names == sorted(names)
    (run / "trials.jsonl").write_bytes((run / "trials.jsonl").read_bytes() + b"\n")
    assert results_archive(run, tmp_path / "c.tar") != first


def test_record_needs_an_attestation_of_the_same_repository_and_archive(
    world: SynthWorld, tmp_path: Path
) -> None:
    ledger = world.submissions / LEDGER_FILE
    run = _run(world)
    with pytest.raises(TaurecError, match="no attestation URL"):
        record_runs([run], ledger, RUN_URL)
    with pytest.raises(TaurecError, match="is not from the repository of the workflow run"):
        record_runs(
            [run], ledger, RUN_URL, attestation_url="https://github.com/evil/x/attestations/1"
        )
    with pytest.raises(
        TaurecError, match=r"expected https://github\.com/OWNER/REPO/attestations/ID"
    ):
        record_runs([run], ledger, RUN_URL, attestation_url="https://evil.example/attestations/1")
    # The attested archive must be the folder as it is now.
    [(archive, _)] = write_archives([run], tmp_path / "archives")
    (run / "trials.jsonl").write_bytes((run / "trials.jsonl").read_bytes() + b"\n")
    with pytest.raises(TaurecError, match="the attested archive differs from"):
        record_runs([run], ledger, RUN_URL, attestation_url=ATTESTED, archives=archive.parent)
    assert not ledger.exists()
    write_archives([run], tmp_path / "archives")
    [entry] = record_runs([run], ledger, RUN_URL, attestation_url=ATTESTED, archives=archive.parent)
    assert entry.attestation is not None
    assert entry.attestation.archive == f"{world.slugs[0]}--{SNAPSHOT}.tar"
    assert entry.attestation.url == ATTESTED
    assert load_ledger(ledger) == [entry]


def test_check_asks_gh_and_says_plainly_what_it_could_not_check(
    world: SynthWorld, tmp_path: Path
) -> None:
    run = _run(world)
    record_runs([run], world.submissions / LEDGER_FILE, RUN_URL, attestation_url=ATTESTED)
    # No gh at all: not a pass.
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out = _check(world, empty, run)
    assert code == 3, out
    assert f"{run}: attestation not checked (digests match the ledger entry from {RUN_URL}" in out
    assert "attestation not checked: gh (the GitHub CLI) is not on PATH" in out
    # gh cannot reach GitHub: not checked either.
    code, out = _check(
        world, _gh(tmp_path, 1, "dial tcp: lookup api.github.com: no such host"), run
    )
    assert code == 3, out
    assert "attestation not checked: gh could not ask GitHub: dial tcp" in out
    # gh finds no attestation for these bytes (the forged ledger line): not verified.
    code, out = _check(world, _gh(tmp_path, 1, "Error: no attestations found for subject"), run)
    assert code == 1, out
    assert f"{run}: NOT verified (" in out
    assert "refused it: Error: no attestations found for subject" in out
    # gh confirms: verified, asked about the rebuilt archive, the repository and our workflow.
    code, out = _check(world, _gh(tmp_path, 0, "Verification succeeded!"), run)
    assert code == 0, out
    assert f"{run}: verified (" in out
    args = (tmp_path / "gh-args.txt").read_text().splitlines()
    assert args[:2] == ["attestation", "verify"]
    assert Path(args[2]).name == f"{world.slugs[0]}--{SNAPSHOT}.tar"
    assert args[3:] == [
        "--repo",
        "acme/taurec",
        "--signer-workflow",
        "acme/taurec/.github/workflows/refresh.yml",
    ]


def test_check_refuses_edited_results_and_entries_without_an_attestation(
    world: SynthWorld, tmp_path: Path
) -> None:
    ledger = world.submissions / LEDGER_FILE
    edited, old_style = _run(world, 0), _run(world, 1)
    [entry] = record_runs([edited], ledger, RUN_URL, attestation_url=ATTESTED)
    # The first round's forgery: a line with the right digests and no attestation.
    [forged] = record_runs(
        [old_style], tmp_path / "scratch.jsonl", RUN_URL, attestation_url=ATTESTED
    )
    line = forged.model_dump(mode="json") | {"schema_version": 1, "attestation": None}
    with ledger.open("a") as fh:
        fh.write(json.dumps(line) + "\n")
    rows = [json.loads(x) for x in (edited / "trials.jsonl").read_text().splitlines()]
    rows[0]["score"]["reward"] = 1.0
    (edited / "trials.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out = _check(world, _gh(tmp_path, 0, "Verification succeeded!"), edited, old_style)
    assert code == 1, out
    expected = "NOT verified (no ledger entry with these digests and an attestation)"
    assert f"{edited}: {expected}" in out
    assert f"{old_style}: {expected}" in out
    assert entry.attestation is not None
    # The site: neither is verified; with an attestation the badge would link to it.
    inputs = load_inputs(world.submissions, world.snapshots, world.tasks)
    assert not any(r.verified for r in inputs.runs)


def test_the_ledger_refuses_a_path_through_a_link(world: SynthWorld, tmp_path: Path) -> None:
    run = _run(world)
    record_runs([run], world.submissions / LEDGER_FILE, RUN_URL, attestation_url=ATTESTED)
    alias = tmp_path / "alias"
    alias.symlink_to(world.submissions)
    linked = alias / world.slugs[0] / "results" / SNAPSHOT
    code, out = _check(world, _gh(tmp_path, 0, "Verification succeeded!"), linked)
    assert code == 1, out
    assert f"{linked}: NOT verified (refused: {alias}: a symlink (to {world.submissions})" in out
    before = (world.submissions / LEDGER_FILE).read_bytes()
    with pytest.raises(LinkError, match=f"{alias}: a symlink"):
        record_runs([linked], world.submissions / LEDGER_FILE, RUN_URL, attestation_url=ATTESTED)
    with pytest.raises(LinkError, match=f"{alias}: a symlink"):
        write_archives([linked], tmp_path / "archives")
    assert (world.submissions / LEDGER_FILE).read_bytes() == before


def test_the_badge_shows_verified_only_with_an_attestation_and_links_to_it(
    world: SynthWorld, tmp_path: Path
) -> None:
    ledger = world.submissions / LEDGER_FILE
    attested, bare = _run(world, 0), _run(world, 1)
    record_runs([attested], ledger, RUN_URL, attestation_url=ATTESTED)
    [line] = record_runs([bare], tmp_path / "scratch.jsonl", RUN_URL, attestation_url=ATTESTED)
    with ledger.open("a") as fh:
        fh.write(json.dumps(line.model_dump(mode="json") | {"attestation": None}) + "\n")
    inputs = load_inputs(world.submissions, world.snapshots, world.tasks)
    runs = {r.slug: r for r in inputs.runs}
    entries = {e.slug: e for e in inputs.entries}
    first, second = world.slugs[0], world.slugs[1]
    badge = badges_for(entries[first], runs[first], None)[0]
    assert (badge.text, badge.href) == ("verified", ATTESTED)
    assert badges_for(entries[second], runs[second], None)[0].text == "self-reported"
    assert not runs[second].verified


def test_an_attestation_url_is_a_github_attestation_address_whole(tmp_path: Path) -> None:
    """The site puts it in the badge's href: nothing before or after the address passes."""
    from runner.core.errors import LoadError
    from runner.publish.ledger import Attestation

    good = {"url": ATTESTED, "archive": "a--b.tar", "archive_sha256": "0" * 64}
    assert Attestation.model_validate(good).repo == "acme/taurec"
    for url in (
        f"javascript:alert(1)//{ATTESTED}",
        f"{ATTESTED}#x",
        f"{ATTESTED}\n",
        "https://github.com/acme/taurec/attestations/",
    ):
        ledger = tmp_path / "ledger.jsonl"
        line = {
            "submission": "s",
            "snapshot": "d",
            "rules": "v2",
            "workflow_run": RUN_URL,
            "recorded_at": "2026-11-02T00:00:00Z",
            "catalog_digest": "c",
            "task_suite_digest": "t",
            "policy_digest": "p",
            "results_sha256": "r",
            "attestation": {**good, "url": url},
        }
        ledger.write_text(json.dumps(line) + "\n")
        with pytest.raises(LoadError, match=r"line 1: attestation\.url"):
            load_ledger(ledger)


def test_check_vouched_asks_about_every_run_the_site_would_call_verified(
    world: SynthWorld, tmp_path: Path
) -> None:
    """What the Pages deploy runs: every vouched-for run, none of the self-reported ones."""
    record_runs(
        [_run(world, 0)], world.submissions / LEDGER_FILE, RUN_URL, attestation_url=ATTESTED
    )
    ledger = str(world.submissions / LEDGER_FILE)
    args = ["ledger", "check", "--vouched", str(world.submissions), "--ledger", ledger]
    refused = _gh(tmp_path, 1, "Error: no attestations found for subject")
    result = CliRunner().invoke(cli, args, env={"PATH": str(refused)})
    assert result.exit_code == 1, result.output
    assert result.output.splitlines() == [
        f"{_run(world, 0)}: NOT verified (ledger entry from {RUN_URL}, attestation {ATTESTED}; "
        "gh attestation verify --repo acme/taurec refused it: Error: no attestations found for "
        "subject)"
    ]
    empty = tmp_path / "no-ledger.jsonl"
    result = CliRunner().invoke(cli, [*args[:-1], str(empty)], env={"PATH": str(refused)})
    assert result.exit_code == 0, result.output
    assert (
        result.output == f"no results folder under {world.submissions} is vouched for by {empty}\n"
    )
    result = CliRunner().invoke(cli, ["ledger", "check"])
    assert result.exit_code == 2
    assert "give one or more results folders, or --vouched SUBMISSIONS_DIR" in result.output
