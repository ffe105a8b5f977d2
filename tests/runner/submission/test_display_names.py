"""Display names: NFKC, no invisible or direction-changing characters, no look-alike of another entry."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from runner.cli import cli
from runner.publish import display_names
from runner.submissions.config import check_submission, load_submission
from tests.runner.submission.test_check import GOOD, errors, make_entry, only_error


def named(root: Path, slug: str, name: str) -> Path:
    text = GOOD.format(slug=slug).replace(
        f"display_name: Good agent {slug}", f'display_name: "{name}"'
    )
    return make_entry(root, slug, text)


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Acme\u202egnp.exe", "U+202E"),  # right-to-left override
        ("Ac\u200bme", "U+200B"),  # zero-width space
        ("Acme\u2066agent", "U+2066"),  # left-to-right isolate
        ("Acme\u200fagent", "U+200F"),  # right-to-left mark
        ("Acme\\u0007agent", "U+0007"),  # bell (a YAML escape)
        ("Acme\\nagent", "U+000A"),  # a line break
    ],
)
def test_control_and_bidi_characters_are_refused(tmp_path: Path, name: str, code: str) -> None:
    folder = named(tmp_path, "acme-agent", name)
    reason = only_error(check_submission(folder), "display_name")
    assert code in reason
    assert "not allowed in a display name" in reason


def test_the_cli_names_file_field_and_character(tmp_path: Path) -> None:
    folder = named(tmp_path, "acme-agent", "Acme\u202egnp")
    result = CliRunner().invoke(cli, ["submission", "check", str(folder)])
    assert result.exit_code == 1
    assert f"{folder / 'submission.yaml'}: display_name: character U+202E" in result.output


def test_names_are_loaded_in_nfkc_form(tmp_path: Path) -> None:
    folder = named(tmp_path, "acme-agent", "\uff21\uff43\uff4d\uff45 \u2163")  # fullwidth, Ⅳ
    assert check_submission(folder) == []
    assert load_submission(folder).display_name == "Acme IV"


@pytest.mark.parametrize(
    "lookalike",
    [
        "ACME AGENT",  # case
        "\u0410cme \u0430gent",  # Cyrillic A and a
        "\u0391\u03f9\u039c\u0395 agent",  # Greek capitals
        "\uff21cme  agent",  # fullwidth A, double space
    ],
)
def test_a_lookalike_of_another_entry_is_an_error(tmp_path: Path, lookalike: str) -> None:
    first = named(tmp_path, "acme-agent", "Acme agent")
    second = named(tmp_path, "acme-copy", lookalike)
    reason = only_error(check_submission(second), "display_name")
    assert str(first / "submission.yaml") in reason
    assert "reads the same as 'Acme agent'" in reason
    assert errors(check_submission(first))  # and the other way round


def test_distinct_names_pass(tmp_path: Path) -> None:
    named(tmp_path, "acme-agent", "Acme agent")
    assert check_submission(named(tmp_path, "acme-two", "Acme agent 2")) == []


def test_fold_strips_invisible_characters() -> None:
    assert display_names.fold("Ac\u200bme") == display_names.fold("acme")
    assert display_names.fold("Acme") != display_names.fold("Acne")
