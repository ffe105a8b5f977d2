"""`taurec submission new`: from flags with no stdin, or by asking; the result always passes the check."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from runner.cli import cli
from runner.core.errors import LoadError, TaurecError
from runner.submissions.config import check_submission, load_submission
from runner.submissions.scaffold import scaffold_submission
from tests.entries import scaffold_answers
from tests.processes import run_text

FLAGS = [
    "--slug",
    "acme-agent",
    "--display-name",
    "ACME agent",
    "--contact-name",
    "Ada",
    "--organization",
    "ACME",
    "--github",
    "ada",
    "--kind",
    "litellm",
    "--model",
    "openai/gpt-5-mini",
    "--api-key-env",
    "OPENAI_API_KEY",
    "--training-cutoff",
    "2025-06-01",
    "--open-weights",
]


def test_new_from_flags_needs_no_stdin(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["submission", "new", *FLAGS, "--dir", str(tmp_path), "--no-input"], input=None
    )
    assert result.exit_code == 0, result.output
    folder = tmp_path / "acme-agent"
    assert check_submission(folder) == []
    submission = load_submission(folder)
    assert submission.agent.kind == "litellm"
    assert submission.agent.api_key_env == "OPENAI_API_KEY"
    assert submission.contact.organization == "ACME"
    assert str(submission.model.training_cutoff) == "2025-06-01"
    assert submission.model.open_weights is True
    text = (folder / "submission.yaml").read_text()
    assert text.startswith("# yaml-language-server: $schema=../schema.json\n")


def test_missing_flags_without_a_terminal_fail_with_the_list(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["submission", "new", "--slug", "x-agent", "--dir", str(tmp_path), "--no-input"]
    )
    assert result.exit_code == 2
    assert "missing --display-name, --contact-name, --kind" in result.output
    assert not (tmp_path / "x-agent").exists()


def test_new_interactively(tmp_path: Path) -> None:
    answers = "\n".join(
        [
            "my-bot",  # slug
            "My bot",  # display name
            "Bo",  # contact
            "",  # organization
            "",  # email
            "bo",  # github
            "http",  # kind
            "https://bot.example.com/step",  # endpoint
            "2025-01-31",  # training cutoff
        ]
    )
    result = CliRunner().invoke(
        cli,
        ["submission", "new", "--dir", str(tmp_path), "--interactive"],
        input=answers + "\n",
    )
    assert result.exit_code == 0, result.output
    submission = load_submission(tmp_path / "my-bot")
    assert submission.agent.kind == "http"
    assert submission.agent.endpoint == "https://bot.example.com/step"
    assert check_submission(tmp_path / "my-bot") == []


def test_builtin_from_flags(tmp_path: Path) -> None:
    file = scaffold_submission(
        tmp_path,
        scaffold_answers("my-random", "builtin", builtin="random"),
    )
    document = yaml.safe_load(file.read_text())
    assert document["agent"] == {"kind": "builtin", "name": "random"}
    assert document["trials"] == 4


def test_refuses_to_overwrite(tmp_path: Path) -> None:
    answers = scaffold_answers("my-random", "builtin", builtin="random")
    scaffold_submission(tmp_path, answers)
    with pytest.raises(TaurecError, match="already exists"):
        scaffold_submission(tmp_path, answers)


def test_refuses_a_bad_entry_and_leaves_nothing(tmp_path: Path) -> None:
    answers = scaffold_answers(
        "plain-http", "http", endpoint="http://agent.example.com/step", trials=2
    )
    with pytest.raises(LoadError) as caught:
        scaffold_submission(tmp_path, answers)
    assert any("agent.endpoint" in p for p in caught.value.problems)
    assert any(p.startswith("trials:") for p in caught.value.problems)
    assert not (tmp_path / "plain-http").exists()


TAUREC = Path(sys.executable).parent / "taurec"


def test_new_reads_a_here_doc_and_asks_again_on_a_bad_value(tmp_path: Path) -> None:
    # A pipe, not a terminal: the answers come in order; each bad one is explained and re-asked.
    answers = """My_Bot
my-bot
My bot
Bo

bo@example.com
httpx
http
http://bot.example.com/step
https://bot.example.com/step
31-01-2025
2025-01-31
"""
    done = run_text([TAUREC, "submission", "new"], input=answers, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "'My_Bot' will not do: bad slug 'My_Bot'" in done.stderr
    assert "'httpx' will not do: choose one of litellm, http, builtin" in done.stderr
    assert "'http://bot.example.com/step' will not do: plain http" in done.stderr
    assert "'31-01-2025' will not do: Input should be a valid date" in done.stderr
    folder = tmp_path / "submissions" / "my-bot"  # --dir defaults to ./submissions
    submission = load_submission(folder)
    assert submission.agent.kind == "http"
    assert submission.agent.endpoint == "https://bot.example.com/step"
    assert str(submission.model.training_cutoff) == "2025-01-31"
    assert check_submission(folder) == []


def test_a_here_doc_that_ends_early_names_what_is_missing(tmp_path: Path) -> None:
    done = run_text(
        [TAUREC, "submission", "new"], input="my-bot\nMy bot\n", cwd=tmp_path, timeout=60
    )
    assert done.returncode == 2
    assert "missing --contact-name, --kind" in done.stderr
    assert not (tmp_path / "submissions" / "my-bot").exists()


def test_every_prompt_is_the_help_text_of_its_option() -> None:
    from runner.cli.submission import new_command
    from runner.submissions.interview import QUESTIONS

    helps = {
        opt: param.help
        for param in new_command.params
        if isinstance(param, click.Option)
        for opt in param.opts
    }
    for question in QUESTIONS:
        assert question.flag in helps, question.flag
        help_text = helps[question.flag]
        assert help_text is not None
        assert question.prompt().startswith(help_text.rstrip("."))
        assert question.prompt().rstrip().endswith(question.flag + ":")
