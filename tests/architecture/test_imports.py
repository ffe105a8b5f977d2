"""The import graph: no cycle between our modules, and the arrows run one way.

Edges are every `import` in a module, top-level or inside a function (a lazy import still ties
the two modules together). Those under `if TYPE_CHECKING:` are never executed, so the layering
checks leave them out, but the cycle check counts them: two modules that name each other's
types are one design, whichever of the two imports at run time.

The floors: the CLI (`runner.cli`) and the runner (`runner.*`) reach a domain only through the
registry (`runner.core.domains.REGISTRY`, by name); the domains (`domains.<name>`) use the
sources (`catalog_pipeline.<source>`), the kits (`runner.kits`, which use only the core) and the
core; the sources use the snapshot core
(`catalog_pipeline.*` outside a source folder) and the domain-free core (`runner.core`), never
the runner above it nor any domain: a domain names its source and takes its item model from it
(`catalog_pipeline.tmdb.items`, `catalog_pipeline.openfoodfacts.items`), never the reverse.
"""

from __future__ import annotations

import ast
import re
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


def _imported(path: Path, *, type_only: bool = False) -> Iterator[str]:
    """Every module `path` imports (with `type_only`, those under `if TYPE_CHECKING:` too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in tree.body:
        if not type_only and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
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


def _graph(*, type_only: bool = False) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        edges = {_owner(name) for name in _imported(path, type_only=type_only)}
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
    """A domain's package (`domains.<name>`) or a domain's source (`catalog_pipeline.<source>`).

    The snapshot core (`catalog_pipeline` outside a source folder) is domain-free: the CLI's
    `catalog verify` uses it for any domain's snapshot.
    """
    return module.startswith("domains.") or module == "domains" or _source_of(module) is not None


def test_no_import_cycle_between_our_modules() -> None:
    """Not even one that only a type annotation closes (`if TYPE_CHECKING:` imports count)."""
    assert _cycles(_graph(type_only=True)) == []


# The one place the runner names domain code: the registry, by "module:Class" strings.
REGISTRY_MODULE = "runner.core.domains"
_DOMAIN_MODULE_STRING = re.compile(r"^(domains|catalog_pipeline)(\.[A-Za-z_]\w*)*(:[A-Za-z_]\w*)?$")


def _domain_module_strings(path: Path) -> list[str]:
    """String constants in `path` that name a domain or source module (a lazy back-arrow)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and _DOMAIN_MODULE_STRING.match(node.value)
        and "." in node.value.partition(":")[0]
    )


def test_the_runner_names_domain_modules_only_in_the_registry() -> None:
    """`importlib.import_module("domains.movies.x")` is an import the graph cannot see."""
    named = {
        module: _domain_module_strings(path)
        for module, path in MODULES.items()
        if module.startswith("runner") and module != REGISTRY_MODULE
    }
    assert {m: s for m, s in named.items() if s} == {}


# Each source folder serves one domain (the domain names its source and reads its item model
# from it; the source imports no domain at all).
SOURCE_DOMAIN = {"tmdb": "movies", "openfoodfacts": "grocery"}


def _source_of(module: str) -> str | None:
    """The source folder a `catalog_pipeline` module belongs to (None: the snapshot core)."""
    parts = module.split(".")
    if parts[0] != "catalog_pipeline" or len(parts) < 2:
        return None
    return parts[1] if (ROOT / "catalog_pipeline" / parts[1]).is_dir() else None


def test_the_sources_use_only_the_core_below_them() -> None:
    """No source module imports the runner above `runner.core`, nor the CLI."""
    graph = _graph()
    offenders = {
        module: sorted(
            e for e in edges if e.startswith("runner") and not e.startswith("runner.core")
        )
        for module, edges in graph.items()
        if module.startswith("catalog_pipeline")
    }
    assert {m: e for m, e in offenders.items() if e} == {}


def test_every_source_folder_names_its_domain() -> None:
    folders = {
        p.name for p in (ROOT / "catalog_pipeline").iterdir() if (p / "__init__.py").exists()
    }
    assert folders == set(SOURCE_DOMAIN)


def test_the_snapshot_core_imports_no_source_and_no_domain() -> None:
    graph = _graph()
    offenders = {
        module: sorted(
            e
            for e in edges
            if e.startswith("domains") or (e.startswith("catalog_pipeline") and _source_of(e))
        )
        for module, edges in graph.items()
        if module.startswith("catalog_pipeline") and _source_of(module) is None
    }
    assert {m: e for m, e in offenders.items() if e} == {}


def test_the_domain_free_core_imports_no_domain_code() -> None:
    graph = _graph()
    offenders = {
        module: sorted(e for e in edges if _is_domain_code(e))
        for module, edges in graph.items()
        if module.startswith("runner") and not _is_domain_code(module)
    }
    assert {m: e for m, e in offenders.items() if e} == {}


def test_the_contracts_floor_imports_nothing_above_it() -> None:
    """`runner.core` (contracts and kits) is the floor: no snapshot code, no domain, no source."""
    graph = _graph()
    offenders = {
        module: sorted(e for e in edges if e.startswith(("catalog_pipeline", "domains")))
        for module, edges in graph.items()
        if module.startswith("runner.core")
    }
    assert {m: e for m, e in offenders.items() if e} == {}


def test_the_kits_sit_between_the_domains_and_the_core() -> None:
    """domains -> runner.kits -> runner.core: a kit imports only the core and other kits (no
    domain, no source, no snapshot code, nothing of the runner above the core), and neither the
    core nor anything of the runner but the kits' own modules imports a kit."""
    graph = _graph()
    kits = {m for m in graph if m == "runner.kits" or m.startswith("runner.kits.")}
    assert {"runner.kits.user", "runner.kits.store"} <= kits
    upward = {
        module: sorted(e for e in edges if not e.startswith(("runner.core", "runner.kits")))
        for module, edges in graph.items()
        if module in kits
    }
    assert {m: e for m, e in upward.items() if e} == {}
    downward = {
        module: sorted(e for e in edges if e in kits)
        for module, edges in graph.items()
        if module.startswith("runner") and module not in kits
    }
    assert {m: e for m, e in downward.items() if e} == {}


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
    assert "domains.movies.catalog" in set(_imported(module, type_only=True))
    module.write_text(
        'EXPORTS = {"Task": "domains.movies.tasks", "M": "domains.movies:MoviesDomain"}\n'
        'NOT_A_MODULE = "domains"\n',
        encoding="utf-8",
    )
    assert _domain_module_strings(module) == ["domains.movies.tasks", "domains.movies:MoviesDomain"]


def _back_arrows(graph: dict[str, set[str]]) -> dict[str, list[str]]:
    """Source modules (`catalog_pipeline.*`) that import domain code, with what they import."""
    found = {
        module: sorted(e for e in edges if e == "domains" or e.startswith("domains."))
        for module, edges in graph.items()
        if module.startswith("catalog_pipeline")
    }
    return {m: e for m, e in found.items() if e}


def test_no_source_imports_a_domain() -> None:
    """domains -> catalog_pipeline, never back: not even a source reading its own domain's items
    (a lazy import counts; one under `if TYPE_CHECKING:` as well)."""
    assert _back_arrows(_graph(type_only=True)) == {}


def test_the_back_arrow_check_fails_on_a_source_importing_its_domain() -> None:
    graph = {
        "catalog_pipeline.tmdb.normalize": {"domains.movies.catalog", "runner.core.errors"},
        "catalog_pipeline.verify": {"runner.core.errors"},
        "domains.movies.catalog": {"catalog_pipeline.tmdb.items"},
    }
    assert _back_arrows(graph) == {"catalog_pipeline.tmdb.normalize": ["domains.movies.catalog"]}


def test_a_domain_package_is_its_own_and_imports_no_other_domain() -> None:
    graph = _graph()
    for module, edges in graph.items():
        if not module.startswith("domains."):
            continue
        own = module.split(".")[1]
        others = sorted(e for e in edges if e.startswith("domains.") and e.split(".")[1] != own)
        assert others == [], f"{module} imports another domain: {others}"
