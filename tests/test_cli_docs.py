"""The CLI reference (docs/cli.md) and the README's table are generated from `--help`: no command undocumented, no drift."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import click

from runner.cli import COMMANDS, cli
from runner.core.paths import PROJECT_ROOT, SNAPSHOTS_DIR
from tests.processes import run_text


def cli_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "cli_docs", PROJECT_ROOT / "scripts" / "cli_docs.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_registered_command_loads() -> None:
    ctx = click.Context(cli, info_name="taurec")
    missing = [name for name in COMMANDS if cli.get_command(ctx, name) is None]
    assert missing == []


def test_every_command_is_documented() -> None:
    docs = cli_docs()
    documented = set(re.findall(r"^## `(taurec[^`]*)`$", docs.REFERENCE.read_text(), re.M))
    names = {name for name, _, _ in docs.commands()}
    assert names - documented == set(), "undocumented: run `python scripts/cli_docs.py`"
    assert documented - names == set(), "documented but gone: run `python scripts/cli_docs.py`"
    leaves = {name for name, command, _ in docs.commands() if not isinstance(command, click.Group)}
    readme = (PROJECT_ROOT / "README.md").read_text()
    for name in leaves:
        assert f"[`{name}`]" in readme, f"{name} missing from the README's CLI at a glance"


def test_the_reference_has_not_drifted() -> None:
    docs = cli_docs()
    assert docs.REFERENCE.read_text(encoding="utf-8") == docs.reference(), (
        "docs/cli.md is out of date: run `.venv/bin/python scripts/cli_docs.py`"
    )
    readme = docs.README.read_text(encoding="utf-8")
    assert readme == docs.readme_with_glance(readme), (
        "README.md's CLI at a glance is out of date: run `.venv/bin/python scripts/cli_docs.py`"
    )


def test_the_reference_is_machine_independent() -> None:
    assert str(PROJECT_ROOT) not in cli_docs().reference()


def test_the_reference_does_not_depend_on_where_the_checkout_lives(tmp_path: Path) -> None:
    # Before: --help printed absolute install paths and the check failed in any checkout whose
    # path was longer than ~14 characters (a temp clone, GitHub's runner).
    deep = tmp_path.joinpath(*["a-rather-long-folder-name"] * 6, "tau-rec")
    for name in (
        "runner",
        "catalog_pipeline",
        "domains",
        "scripts",
        "docs",
        "tasks",
        "submissions",
    ):
        shutil.copytree(PROJECT_ROOT / name, deep / name, ignore=shutil.ignore_patterns("results"))
    for name in ("README.md", "pyproject.toml", "leaderboard.yaml"):
        if (PROJECT_ROOT / name).exists():
            shutil.copy(PROJECT_ROOT / name, deep / name)
    done = run_text(
        [sys.executable, "scripts/cli_docs.py", "--check"],
        cwd=deep,
        env={**os.environ, "PYTHONPATH": str(deep)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert str(deep) not in (deep / "docs" / "cli.md").read_text(encoding="utf-8")


def test_help_shows_path_defaults_relative_to_the_working_directory(tmp_path: Path) -> None:
    # Before: relative to the checkout ("catalog_pipeline/snapshots" from anywhere), a path
    # that named nothing when typed in another folder.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(
        [str(PROJECT_ROOT / ".venv" / "bin" / "taurec"), "catalog", "refresh", "--help"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    text = "".join(done.stdout.split())  # help wraps (and splits) long defaults over lines
    [shown] = re.findall(r"--outDIRECTORY.*?\[default:\((\S+?)\)\]", text)
    assert not Path(shown).is_absolute()
    assert (elsewhere / shown).resolve() == SNAPSHOTS_DIR.resolve()


def test_help_summaries_are_the_commands_own() -> None:
    # `taurec --help` lists the commands from SUMMARIES without importing them.
    from runner.cli import SUMMARIES

    ctx = click.Context(cli, info_name="taurec")
    assert SUMMARIES.keys() == COMMANDS.keys()
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None
        assert not command.short_help, name
        assert not command.hidden, name
        assert not command.deprecated, name
        first = " ".join((command.help or "").partition("\n\n")[0].split())
        assert SUMMARIES[name] == first, f"runner/cli SUMMARIES[{name!r}] drifted from its help"


def test_help_imports_no_command() -> None:
    code = (
        "import sys; from runner.cli import COMMANDS, main; sys.argv = ['taurec', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "loaded = sorted({t.split(':')[0] for t in COMMANDS.values()} & set(sys.modules))\n"
        "print(loaded, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip() == "[]"
