"""The declared dependencies match the code: each one is imported (or is a named tool), each import is declared.

The runtime packages (`runner`, `catalog_pipeline`, `domains`) may import only `[project]
dependencies`; tests, benchmarks, scripts and examples may also import the `dev` extra. Import
names are mapped to distributions with `importlib.metadata.packages_distributions()` (so `yaml`
is PyYAML and `markupsafe` is MarkupSafe). The `trial` extra is never installed by `make` (it
goes in a venv of its own): only benchmarks may import it, by its distributions' own names.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNTIME_FOLDERS = ("runner", "catalog_pipeline", "domains")
DEV_FOLDERS = ("tests", "benchmarks", "scripts", "examples")

# Declared, never imported, and why (each reason is checked below, so a stale entry fails).
TOOLS: dict[str, str] = {
    "mkdocs-material": "the theme mkdocs.yml names (`theme: name: material`)",
    "pytest-xdist": "pytest's `-n` in pyproject's addopts",
    "ruff": "the linter `make lint` runs",
    "mypy": "the type checker `make typecheck` runs",
    "types-requests": "mypy's stubs for `requests`",
    "types-pyyaml": "mypy's stubs for `yaml`",
}


def _normal(name: str) -> str:
    """A distribution name as PEP 503 compares them (`PyYAML` -> `pyyaml`)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _names(specs: list[str]) -> set[str]:
    return {_normal(re.split(r"[\[=<>!~;\s]", spec, maxsplit=1)[0]) for spec in specs}


def _project() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"
    ]
    return project


def _declared() -> tuple[set[str], set[str]]:
    project = _project()
    return _names(project["dependencies"]), _names(project["optional-dependencies"]["dev"])


def _trial() -> set[str]:
    """The `trial` extra: imported by benchmarks only, installed by no `make` target."""
    return _names(_project()["optional-dependencies"]["trial"])


def _local_modules(folder: Path) -> set[str]:
    """Modules a folder's scripts import from beside them (tests' helpers, benchmark modules)."""
    return {p.stem for p in folder.rglob("*.py")} | {
        p.parent.name for p in folder.rglob("__init__.py")
    }


def _third_party_imports(folders: tuple[str, ...]) -> dict[str, set[str]]:
    """Top-level third-party module -> the files that import it."""
    ours = {"runner", "catalog_pipeline", "domains", "tests", "benchmarks", "scripts"}
    found: dict[str, set[str]] = {}
    # A script's sibling module, unless it shadows an installed one (then the import is the latter).
    local = set().union(*(_local_modules(ROOT / folder) for folder in folders))
    local -= set(packages_distributions())
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "node_modules" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    top = name.partition(".")[0]
                    if top in sys.stdlib_module_names or top in ours or top == "__future__":
                        continue
                    if top in local:
                        continue
                    found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def _distributions(
    modules: dict[str, set[str]], trial: frozenset[str] = frozenset()
) -> dict[str, set[str]]:
    """Distribution -> the files that import one of its modules; an unknown module raises
    (unless `trial` names it: a `trial` distribution imported under its own name)."""
    by_module = {**packages_distributions(), **{t: [t] for t in trial}}
    out: dict[str, set[str]] = {}
    unknown = {m: sorted(files)[:3] for m, files in modules.items() if m not in by_module}
    assert unknown == {}, f"imported but installed by no distribution: {unknown}"
    for module, files in modules.items():
        for dist in by_module[module]:
            out.setdefault(_normal(dist), set()).update(files)
    return out


def test_every_runtime_import_is_a_declared_runtime_dependency() -> None:
    runtime, _ = _declared()
    imported = _distributions(_third_party_imports(RUNTIME_FOLDERS))
    missing = {dist: sorted(files)[:3] for dist, files in imported.items() if dist not in runtime}
    assert missing == {}, "imported by the packages but not in [project] dependencies"


def test_every_test_and_script_import_is_declared() -> None:
    runtime, dev = _declared()
    trial = _trial()
    imported = _distributions(_third_party_imports(DEV_FOLDERS), frozenset(trial))
    missing = {
        dist: sorted(files)[:3]
        for dist, files in imported.items()
        if dist not in runtime | dev | trial
    }
    assert missing == {}, "imported by tests/benchmarks/scripts but declared nowhere"
    outside = {
        dist: sorted(f for f in files if not f.startswith("benchmarks/"))
        for dist, files in imported.items()
        if dist in trial
    }
    assert all(not files for files in outside.values()), f"trial extra imported by {outside}"
    assert not trial & (runtime | dev), "a trial distribution also installed by make"


def test_every_declared_dependency_is_imported_or_a_named_tool() -> None:
    runtime, dev = _declared()
    trial = _trial()
    used_at_runtime = set(_distributions(_third_party_imports(RUNTIME_FOLDERS)))
    used_anywhere = used_at_runtime | set(
        _distributions(_third_party_imports(DEV_FOLDERS), frozenset(trial))
    )
    unused_runtime = sorted(runtime - used_at_runtime - set(TOOLS))
    unused_dev = sorted(dev - used_anywhere - set(TOOLS))
    assert unused_runtime == [], "runtime dependencies the packages never import"
    assert unused_dev == [], "dev dependencies nothing imports"
    assert sorted(trial - used_anywhere) == [], "trial dependencies nothing imports"


def test_each_tool_entry_is_still_true() -> None:
    runtime, dev = _declared()
    assert set(TOOLS) <= runtime | dev, "a TOOLS entry that is no longer declared"
    assert re.search(r"theme:\s*\n\s*name: material", (ROOT / "mkdocs.yml").read_text("utf-8"))
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert " -n " in f" {pyproject['tool']['pytest']['ini_options']['addopts']} "
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "$(BIN)/ruff check" in makefile
    assert "$(BIN)/mypy" in makefile
    imported = _third_party_imports(RUNTIME_FOLDERS)
    assert {"requests", "yaml"} <= set(imported)


@pytest.mark.parametrize(
    ("source", "expected"),
    [("import yaml\nfrom markupsafe import Markup\n", {"pyyaml", "markupsafe"})],
)
def test_the_scan_maps_import_names_to_distributions(
    tmp_path: Path, source: str, expected: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check can fail: a module's imports are found and named by their distribution."""
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "m.py").write_text(source + "import json\nfrom . import sibling\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert set(_distributions(_third_party_imports(("pkg",)))) == expected
