"""The import graph: no cycle between our modules, and the domain-free core imports no domain code.

Edges are every `import` in a module, top-level or inside a function (a lazy import still ties
the two modules together), but not those under `if TYPE_CHECKING:` (never executed).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("runner", "catalog_pipeline", "domains")


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _owner(name: str) -> str | None:
    """The module of ours that an imported name lives in (None: not ours)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _imported(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            skipped |= {id(n) for n in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = [f"{node.module}.{a.name}" for a in node.names]
            if all(s in MODULES for s in submodules):
                yield from submodules  # `from pkg import submodule`: the submodules
            else:
                yield node.module


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        edges = {_owner(name) for name in _imported(path)}
        graph[module] = {e for e in edges if e is not None and e != module}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _is_domain_code(module: str) -> bool:
    """A domain's package (`domains.<name>`), or movies' source pipeline (`catalog_pipeline`)."""
    return module.startswith(("domains.", "catalog_pipeline")) or module == "domains"


def test_no_import_cycle_between_our_modules() -> None:
    assert _cycles(_graph()) == []


def test_the_domain_free_core_imports_no_domain_code() -> None:
    graph = _graph()
    offenders = {
        module: sorted(e for e in edges if _is_domain_code(e))
        for module, edges in graph.items()
        if module.startswith("runner") and not _is_domain_code(module)
    }
    assert {m: e for m, e in offenders.items() if e} == {}


def test_the_walk_sees_a_cycle_and_a_forbidden_import(tmp_path: Path) -> None:
    """The checks can fail: a two-module cycle is found, and a lazy import is an edge."""
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import domains.movies.catalog\n"
        "def f():\n    from domains.movies import tasks\n",
        encoding="utf-8",
    )
    assert set(_imported(module)) == {"typing", "domains.movies.tasks"}


def test_a_domain_package_is_its_own_and_imports_no_other_domain() -> None:
    graph = _graph()
    for module, edges in graph.items():
        if module.startswith("catalog_pipeline"):
            own = "movies"  # movies' TMDB source pipeline
        elif module.startswith("domains."):
            own = module.split(".")[1]
        else:
            continue
        others = sorted(e for e in edges if e.startswith("domains.") and e.split(".")[1] != own)
        assert others == [], f"{module} imports another domain: {others}"
