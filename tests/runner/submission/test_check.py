"""`check_submission` and `taurec submission check`: one real folder per error case, every error at once."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from runner.cli import cli
from runner.submissions.config import (
    Problem,
    changed_submission_dirs,
    check_submission,
    check_submissions,
    find_secrets,
    has_errors,
)

GOOD = """\
schema_version: 1
slug: {slug}
display_name: Good agent {slug}
contact:
  name: A Submitter
  github: a-submitter
agent:
  kind: litellm
  model: openai/gpt-5-mini
  api_key_env: OPENAI_API_KEY
trials: 4
"""


def make_entry(root: Path, slug: str, text: str | None = None) -> Path:
    folder = root / "submissions" / slug
    folder.mkdir(parents=True)
    body = GOOD.format(slug=slug) if text is None else textwrap.dedent(text)
    (folder / "submission.yaml").write_text(body, encoding="utf-8")
    return folder


def my_agent(agent: str) -> str:
    """An entry `my-agent` (display name B, contact A) whose `agent` part is the given YAML."""
    head = "slug: my-agent\ndisplay_name: B\ncontact: {name: A, github: a}\n"
    return head + textwrap.dedent(agent)


def errors(problems: list[Problem]) -> list[tuple[str, str]]:
    return [(p.field, p.reason) for p in problems if p.severity == "error"]


def only_error(problems: list[Problem], field: str) -> str:
    found = errors(problems)
    assert [f for f, _ in found] == [field], found
    return found[0][1]


def entry_error(tmp_path: Path, slug: str, text: str, field: str) -> str:
    """The reason of the one error the check finds in entry `slug` (submission.yaml `text`),
    which must be about `field`."""
    return only_error(check_submission(make_entry(tmp_path, slug, text)), field)


def test_a_good_entry_has_no_problem(tmp_path: Path) -> None:
    assert check_submission(make_entry(tmp_path, "good-agent")) == []


def test_the_yaml_file_itself_can_be_given(tmp_path: Path) -> None:
    folder = make_entry(tmp_path, "good-agent")
    assert check_submission(folder / "submission.yaml") == []


def test_problems_name_the_file(tmp_path: Path) -> None:
    folder = make_entry(tmp_path, "good-agent", GOOD.format(slug="good-agent") + "colour: red\n")
    (problem,) = check_submission(folder)
    assert problem.file == str(folder / "submission.yaml")
    assert str(problem).startswith(f"error: {folder / 'submission.yaml'}: colour: unknown key")


@pytest.mark.parametrize(
    ("extra", "field", "hint"),
    [
        ("colour: red\n", "colour", ""),
        ("trails: 8\n", "trails", "did you mean 'trials'?"),
    ],
)
def test_unknown_top_level_key(tmp_path: Path, extra: str, field: str, hint: str) -> None:
    folder = make_entry(tmp_path, "good-agent", GOOD.format(slug="good-agent") + extra)
    reason = only_error(check_submission(folder), field)
    assert reason.startswith("unknown key")
    assert hint in reason


def test_unknown_nested_key_suggests_the_right_one(tmp_path: Path) -> None:
    text = GOOD.format(slug="good-agent").replace("  github: a-submitter", "  emial: a@b.example")
    reason = entry_error(tmp_path, "good-agent", text, "contact.emial")
    assert reason == "unknown key (did you mean 'email'?)"


def test_unknown_key_inside_the_agent(tmp_path: Path) -> None:
    text = GOOD.format(slug="good-agent") + "  temprature: 0.2\n"
    text = text.replace("trials: 4\n  temprature: 0.2\n", "  temprature: 0.2\ntrials: 4\n")
    reason = entry_error(tmp_path, "good-agent", text, "agent.temprature")
    assert "did you mean 'temperature'?" in reason


@pytest.mark.parametrize("slug", ["Bad_Slug", "two--dashes", "-leading", "UPPER"])
def test_bad_slug(tmp_path: Path, slug: str) -> None:
    folder = make_entry(tmp_path, "good-agent", GOOD.format(slug=f'"{slug}"'))
    reasons = [r for f, r in errors(check_submission(folder)) if f == "slug"]
    assert any(r.startswith("bad slug") and slug in r for r in reasons), reasons


def test_slug_must_equal_the_folder_name(tmp_path: Path) -> None:
    folder = make_entry(tmp_path, "good-agent", GOOD.format(slug="other-agent"))
    reason = only_error(check_submission(folder), "slug")
    assert reason == "'other-agent' differs from the folder name 'good-agent'"


def test_folder_name_must_be_a_slug(tmp_path: Path) -> None:
    folder = make_entry(tmp_path, "Good_Agent", GOOD.format(slug="good-agent"))
    found = errors(check_submission(folder))
    assert ("(path)", "folder name is not a valid slug (lowercase, digits, -)") in found


def test_fewer_than_four_trials(tmp_path: Path) -> None:
    text = GOOD.format(slug="good-agent").replace("trials: 4", "trials: 2")
    reason = entry_error(tmp_path, "good-agent", text, "trials")
    assert reason == "2 < 4: the board reports pass^4"


def test_unknown_builtin_names_the_built_ins(tmp_path: Path) -> None:
    text = """\
        slug: my-baseline
        display_name: B
        contact: {name: A, github: a}
        agent: {kind: builtin, name: orcale}
        """
    reason = entry_error(tmp_path, "my-baseline", text, "agent.name")
    assert "unknown builtin 'orcale' (did you mean 'oracle'?)" in reason
    assert "built-ins are oracle, heuristic, careful, random, exploit-" in reason


def test_unknown_agent_kind(tmp_path: Path) -> None:
    text = my_agent('agent: {kind: grpc, endpoint: "https://x.example"}\n')
    reason = entry_error(tmp_path, "my-agent", text, "agent.kind")
    assert "unknown agent kind 'grpc'" in reason


@pytest.mark.parametrize(
    ("secret", "what"),
    [
        ("sk-proj-" + "Ab3dE5gH7jK9mN1pQ3sT5vW7", "OpenAI-style API key"),
        ("sk-ant-api03-" + "Ab3dE5gH7jK9mN1pQ3sT5vW7", "Anthropic API key"),
        ("AIza" + "SyAb3dE5gH7jK9mN1pQ3sT5vW7yZ1bC3dE5", "Google API key"),
        ("ghp_" + "Ab3dE5gH7jK9mN1pQ3sT5vW7yZ1bC3dE5fG", "GitHub token"),
        ("Bearer " + "abc.def-ghi_jkl", "bearer token"),
        ("9f8e7d6c5b4a39281706f5e4d3c2b1a0", "long high-entropy token"),
    ],
)
def test_a_value_that_looks_like_a_key(tmp_path: Path, secret: str, what: str) -> None:
    text = GOOD.format(slug="good-agent").replace(
        "  api_key_env: OPENAI_API_KEY",
        f"  api_key_env: OPENAI_API_KEY\n  extra_body:\n    note: '{secret}'",
    )
    reason = entry_error(tmp_path, "good-agent", text, "agent.extra_body.note")
    assert what in reason
    assert secret not in reason  # never echo the secret back


def test_a_key_in_a_comment_is_found_by_line(tmp_path: Path) -> None:
    key = "sk-proj-" + "Zz9yX8wV7uT6sR5qP4oN3mL2"
    text = GOOD.format(slug="good-agent") + f"# my key, just in case: {key}\n"
    assert entry_error(tmp_path, "good-agent", text, "line 12")


def test_a_key_given_as_api_key_env(tmp_path: Path) -> None:
    key = "sk-proj-" + "Zz9yX8wV7uT6sR5qP4oN3mL2"
    text = GOOD.format(slug="good-agent").replace("OPENAI_API_KEY", key)
    found = errors(check_submission(make_entry(tmp_path, "good-agent", text)))
    fields = [f for f, _ in found]
    assert fields == ["agent.api_key_env", "agent.api_key_env"]
    assert any("OpenAI-style API key" in r for _, r in found)
    assert any("NAME of an environment variable" in r for _, r in found)


def test_api_key_env_must_be_an_env_var_name(tmp_path: Path) -> None:
    text = GOOD.format(slug="good-agent").replace("OPENAI_API_KEY", "openai key")
    reason = entry_error(tmp_path, "good-agent", text, "agent.api_key_env")
    assert "NAME of an environment variable" in reason


def test_headers_env_values_must_be_env_var_names(tmp_path: Path) -> None:
    text = my_agent(
        """\
        agent:
          kind: http
          endpoint: https://agent.example.com/step
          headers_env: {X-Team: "team one"}
        """
    )
    reason = entry_error(tmp_path, "my-agent", text, "agent.headers_env.X-Team")
    assert "NAME of an environment variable" in reason


@pytest.mark.parametrize(
    ("endpoint", "ok"),
    [
        ("https://agent.example.com/step", True),
        ("http://127.0.0.1:9000/step", True),
        ("http://localhost:9000/step", True),
        ("http://[::1]:9000/step", True),
        ("http://agent.example.com/step", False),
        ("http://10.0.0.5/step", False),
        ("ftp://agent.example.com/step", False),
    ],
)
def test_http_endpoint_must_be_https_unless_loopback(
    tmp_path: Path, endpoint: str, ok: bool
) -> None:
    text = my_agent(f'agent: {{kind: http, endpoint: "{endpoint}"}}\n')
    problems = check_submission(make_entry(tmp_path, "my-agent", text))
    if ok:
        assert problems == []
    else:
        assert only_error(problems, "agent.endpoint")


def test_litellm_api_base_follows_the_same_rule(tmp_path: Path) -> None:
    text = GOOD.format(slug="good-agent") + "  api_base: http://models.example.com/v1\n"
    text = text.replace("OPENAI_API_KEY", "TAUREC_KEY_GOOD_AGENT")
    text = text.replace("trials: 4\n  api_base", "  api_base").replace("/v1\n", "/v1\ntrials: 4\n")
    reason = entry_error(tmp_path, "good-agent", text, "agent.api_base")
    assert "use https" in reason


def test_credentials_or_keys_inside_an_url(tmp_path: Path) -> None:
    text = my_agent(
        'agent: {kind: http, endpoint: "https://me:pw@agent.example.com/step?token=abc"}\n'
    )
    found = errors(check_submission(make_entry(tmp_path, "my-agent", text)))
    assert [f for f, _ in found] == ["agent.endpoint", "agent.endpoint"]
    assert "credentials in the URL" in found[0][1]
    assert "query string" in found[1][1]


@pytest.mark.parametrize("value", ["../../etc/passwd", "notes/../../x", "/etc/passwd", "~/keys"])
def test_path_tricks_in_values(tmp_path: Path, value: str) -> None:
    text = GOOD.format(slug="good-agent") + f"notes: '{value}'\n"
    reason = entry_error(tmp_path, "good-agent", text, "notes")
    assert "path" in reason


def test_a_symlink_escaping_submissions(tmp_path: Path) -> None:
    folder = make_entry(tmp_path, "good-agent")
    outside = tmp_path / "secret.txt"
    outside.write_text("x")
    (folder / "README.md").symlink_to(outside)
    problems = check_submission(folder)
    assert [f for f, _ in errors(problems)] == ["(path)"]
    assert errors(problems)[0][1].startswith(f"a symlink (to {outside})")
    assert problems[0].file == str(folder / "README.md")


def test_the_config_itself_as_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.yaml"
    target.write_text(GOOD.format(slug="good-agent"))
    folder = tmp_path / "submissions" / "good-agent"
    folder.mkdir(parents=True)
    (folder / "submission.yaml").symlink_to(target)
    problems = check_submission(folder)
    assert [p.file for p in problems] == [str(folder / "submission.yaml")]
    assert errors(problems)[0][1].startswith(f"a symlink (to {target})")


def test_javascript_links_are_refused(tmp_path: Path) -> None:
    text = GOOD.format(slug="good-agent") + "model:\n  links: ['javascript:alert(1)']\n"
    reason = entry_error(tmp_path, "good-agent", text, "model.links[0]")
    assert "not an http(s) link" in reason


def test_commit_links_are_not_mistaken_for_keys(tmp_path: Path) -> None:
    link = "https://github.com/org/agent/commit/0123456789abcdef0123456789abcdef01234567"
    text = GOOD.format(slug="good-agent") + f"model:\n  links: ['{link}']\n"
    assert check_submission(make_entry(tmp_path, "good-agent", text)) == []


def test_custom_track_needs_notes_and_filter_catalog_is_custom(tmp_path: Path) -> None:
    text = GOOD.format(slug="good-agent") + "track: custom\n"
    assert entry_error(tmp_path, "good-agent", text, "notes")
    other = GOOD.format(slug="other-agent") + "tools: {filter_catalog: true}\n"
    reason = only_error(
        check_submission(make_entry(tmp_path, "other-agent", other)), "tools.filter_catalog"
    )
    assert "custom track" in reason


def test_missing_required_fields(tmp_path: Path) -> None:
    folder = make_entry(tmp_path, "good-agent", "slug: good-agent\n")
    found = dict(errors(check_submission(folder)))
    for field in ("display_name", "contact", "agent"):
        assert found[field] == "required field is missing"


def test_duplicate_keys_and_bad_yaml(tmp_path: Path) -> None:
    dup = make_entry(tmp_path, "dup-agent", GOOD.format(slug="dup-agent") + "trials: 8\n")
    assert "duplicate key 'trials'" in only_error(check_submission(dup), "(file)")
    bad = make_entry(tmp_path, "bad-agent", "slug: [unclosed\n")
    assert "invalid YAML" in only_error(check_submission(bad), "(file)")
    top = make_entry(tmp_path, "list-agent", "- just\n- a list\n")
    assert only_error(check_submission(top), "(root)") == "must be a mapping of fields"


def test_missing_file_with_a_hint(tmp_path: Path) -> None:
    folder = tmp_path / "submissions" / "good-agent"
    folder.mkdir(parents=True)
    (folder / "submission.yml").write_text(GOOD.format(slug="good-agent"))
    reason = only_error(check_submission(folder), "(file)")
    assert "submission.yaml is missing" in reason
    assert "submission.yml" in reason


def test_every_error_at_once(tmp_path: Path) -> None:
    text = """\
        slug: wrong-name
        display_name: X
        colour: blue
        contact: {name: A, emial: a@b.example}
        agent:
          kind: litellm
          model: openai/gpt-5
          api_base: http://models.example.com/v1
          api_key_env: sk-proj-Zz9yX8wV7uT6sR5qP4oN3mL2
        trials: 1
        notes: see ../../etc
        """
    fields = {f for f, _ in errors(check_submission(make_entry(tmp_path, "my-agent", text)))}
    assert fields == {
        "slug",
        "colour",
        "contact.emial",
        "agent.api_base",
        "agent.api_key_env",
        "trials",
        "notes",
    }


def test_find_secrets_ignores_ordinary_text() -> None:
    ordinary = [
        "openai/gpt-5-mini-2025-08-07",
        "bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0",
        "A rule-based agent that searches, checks availability and recommends.",
        "https://huggingface.co/org/some-model-name-with-a-long-suffix-0123456789",
        "OPENAI_API_KEY",
    ]
    assert [t for t in ordinary if find_secrets(t)] == []


def test_changed_paths_from_a_pull_request() -> None:
    folders, problems = changed_submission_dirs(
        [
            "submissions/new-agent/submission.yaml",
            "submissions/new-agent/README.md",
            "submissions/old-agent/results/2026-11-01/trials.jsonl",
            "submissions/schema.json",
            "runner/play/loop.py",
            "submissions/../.github/workflows/ci.yml",
            "/etc/passwd",
        ]
    )
    assert folders == ["submissions/new-agent", "submissions/old-agent"]
    by_path = {p.file: p for p in problems}
    assert by_path["submissions/../.github/workflows/ci.yml"].severity == "error"
    assert by_path["/etc/passwd"].severity == "error"
    assert by_path["runner/play/loop.py"].severity == "warning"
    assert by_path["submissions/schema.json"].severity == "warning"
    results = by_path["submissions/old-agent/results/2026-11-01/trials.jsonl"]
    assert results.severity == "error"
    assert "written only by the refresh workflow" in results.reason


def test_a_pr_forging_results_the_ledger_or_verified_by_fails_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attacker: a valid entry plus a results folder, a ledger line and a verified_by URL."""
    make_entry(tmp_path, "sly-agent")
    monkeypatch.chdir(tmp_path)
    run = tmp_path / "submissions/sly-agent/results/2026-11-01"
    run.mkdir(parents=True)
    (run / "run.json").write_text('{"verified_by": "https://example.org/run/1"}')
    (tmp_path / "submissions/ledger.jsonl").write_text('{"submission": "sly-agent"}\n')
    for changed, field in (
        (
            [
                "submissions/sly-agent/submission.yaml",
                "submissions/sly-agent/results/2026-11-01/run.json",
            ],
            "(path)",
        ),
        (["submissions/ledger.jsonl"], "(path)"),
    ):
        report = check_submissions([], changed=changed)
        assert not report.ok
        errors = [p for p in report.problems if p.severity == "error"]
        assert any(p.field == field and "refresh workflow" in p.reason for p in errors)
    assert any(
        p.field == "verified_by" and "may not set verified_by" in p.reason
        for p in check_submissions(
            [], changed=["submissions/sly-agent/results/2026-11-01/run.json"]
        ).problems
    )
    # A verified_by smuggled into the entry's own file fails too (and the markdown says why).
    yaml_path = tmp_path / "submissions/sly-agent/submission.yaml"
    yaml_path.write_text(yaml_path.read_text() + "# verified_by: https://example.org/run/2\n")
    report = check_submissions([], changed=["submissions/sly-agent/submission.yaml"])
    assert not report.ok
    assert "may not set verified_by" in report.markdown()
    # Control: the clean entry alone passes.
    yaml_path.write_text(
        yaml_path.read_text().replace("# verified_by: https://example.org/run/2\n", "")
    )
    assert check_submissions([], changed=["submissions/sly-agent/submission.yaml"]).ok


def test_check_submissions_skips_removed_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_entry(tmp_path, "new-agent")
    monkeypatch.chdir(tmp_path)
    report = check_submissions(
        [],
        changed=["submissions/new-agent/submission.yaml", "submissions/gone-agent/submission.yaml"],
    )
    assert report.checked == ["submissions/new-agent"]
    assert report.removed == ["submissions/gone-agent"]
    assert report.ok
    assert "passed" in report.markdown()


def test_cli_prints_every_problem_and_exits_1(tmp_path: Path) -> None:
    good = make_entry(tmp_path, "good-agent")
    text = GOOD.format(slug="other").replace("trials: 4", "trials: 2") + "colour: x\n"
    bad = make_entry(tmp_path, "bad-agent", text)
    summary = tmp_path / "summary.md"
    result = CliRunner().invoke(
        cli, ["submission", "check", str(good), str(bad), "--summary", str(summary)]
    )
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert sum(line.startswith(f"error: {bad / 'submission.yaml'}: ") for line in lines) == 3
    assert lines[-1] == "2 submission(s) checked: 3 error(s), 0 warning(s)"
    assert "| ❌ |" in summary.read_text()


def test_cli_exit_0_when_clean_and_reads_changed_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_entry(tmp_path, "good-agent")
    changed = tmp_path / "changed"
    changed.write_bytes(b"submissions/good-agent/submission.yaml\0")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["submission", "check", "--changed-files", str(changed)])
    assert result.exit_code == 0, result.output
    assert "1 submission(s) checked: 0 error(s)" in result.output


def test_has_errors_ignores_warnings() -> None:
    assert not has_errors([Problem("f", "contact", "x", severity="warning")])
    assert has_errors([Problem("f", "slug", "x")])


def test_a_builtin_must_be_offered_by_each_domain_the_entry_enters(tmp_path: Path) -> None:
    text = """\
        slug: floor
        display_name: Floor
        contact: {name: A, github: a}
        agent: {kind: builtin, name: do-nothing}
        domains: [%s]
        """
    movies = check_submission(make_entry(tmp_path, "floor", text % "movies"))
    reason = only_error(movies, "agent.name")
    assert reason.startswith("unknown builtin 'do-nothing'; built-ins are oracle, heuristic")
    assert check_submission(make_entry(tmp_path / "g", "floor", text % "grocery")) == []
