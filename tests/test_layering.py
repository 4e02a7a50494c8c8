"""The package's layers only import downward, and no two modules import each other.

Every ``import`` statement of every module counts, wherever it sits (inside a function, under
``if TYPE_CHECKING:``): a lazy or typing-only import of a higher layer is still a dependency on it.
``docs/architecture.md`` draws the same layers.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {
    "xlalens.analyzers": ROOT / "analyzers",
    "xlalens.server": ROOT / "server",
    "xlalens.explainers": ROOT / "explainers",
}

LAYERS: tuple[tuple[str, ...], ...] = (
    ("xlalens.explainers",),
    ("xlalens.analyzers.core",),
    ("xlalens.analyzers.knowledge",),
    ("xlalens.analyzers.inputs",),
    ("xlalens.analyzers.semantics",),
    ("xlalens.analyzers.models.hints", "xlalens.analyzers.models.tracing"),
    ("xlalens.analyzers.models.pallas", "xlalens.analyzers.models.sharding", "xlalens.analyzers.models.torch_xla"),
    ("xlalens.analyzers.models",),
    ("xlalens.analyzers.engine",),
    ("xlalens.analyzers.rules",),
    ("xlalens.analyzers.api", "xlalens.analyzers.annotate", "xlalens.analyzers"),
    ("xlalens.analyzers.output",),
    ("xlalens.analyzers.project",),
    ("xlalens.server",),
    ("xlalens.analyzers.cli",),
)
"""Bottom to top. A module may import modules of its own layer and of the layers below it. The CLI
sits above the server only to start it (``xlalens server``); the server never imports the CLI."""

SIBLINGS_APART = (
    ("xlalens.analyzers.models.pallas", "xlalens.analyzers.models.sharding", "xlalens.analyzers.models.torch_xla"),
)
"""Groups whose members share a layer but must not import one another: each domain model stands alone."""

FORBIDDEN_LIBRARIES = {"xlalens.analyzers": ("pygls", "lsprotocol", "jax", "torch", "torch_xla")}
"""The analyzer is pure: no language-server library, and never the frameworks whose code it reads."""


def module_name(path: Path) -> str:
    for package, folder in PACKAGES.items():
        if path.is_relative_to(folder):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            return ".".join([package, *parts])
    raise ValueError(path)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for folder in PACKAGES.values() for path in sorted(folder.rglob("*.py"))}


def imports_of(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """Every module ``name`` imports (xlalens modules resolved to the module, others by their top name)."""
    known = set(known)
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                found.add(submodule if submodule in known else target)
    return found


def layer_of(module: str) -> tuple[int, str] | None:
    """The index of the layer ``module`` belongs to and the prefix that placed it (the longest one)."""
    best: tuple[int, str] | None = None
    for position, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > len(best[1])):
                best = (position, prefix)
    return best


def violations(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """The upward, sideways-forbidden and library edges of an import graph, as readable lines."""
    found: list[str] = []
    for module, targets in sorted(graph.items()):
        here = layer_of(module)
        for target in sorted(targets):
            for package, libraries in FORBIDDEN_LIBRARIES.items():
                if module.startswith(package) and target.split(".")[0] in libraries:
                    found.append(f"{module} imports {target}, which {package} must never import")
            there = layer_of(target)
            if here is None or there is None:
                continue
            if there[0] > here[0]:
                found.append(f"{module} ({here[1]}) imports {target} from a higher layer ({there[1]})")
            for group in SIBLINGS_APART:
                if here[1] in group and there[1] in group and here[1] != there[1]:
                    found.append(f"{module} imports {target}: domain models {here[1]} and {there[1]} stay apart")
    return found


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in graph:
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def test_every_module_has_a_layer(graph: dict[str, set[str]]) -> None:
    assert [module for module in graph if layer_of(module) is None] == []


def test_imports_only_go_down(graph: dict[str, set[str]]) -> None:
    assert violations(graph) == []


def test_no_import_cycles(graph: dict[str, set[str]]) -> None:
    assert cycles(graph) == []


def test_an_upward_import_is_caught() -> None:
    graph = {
        "xlalens.analyzers.semantics.loops": {"xlalens.analyzers.engine.check_context", "ast"},
        "xlalens.analyzers.models.pallas.model": {"xlalens.analyzers.models.sharding.values"},
        "xlalens.explainers.calculators.dtypes": {"xlalens.analyzers.core.diagnostics"},
        "xlalens.analyzers.core.source": {"pygls.workspace"},
        "xlalens.analyzers.rules.jax.jx101": {"xlalens.analyzers.semantics.names", "xlalens.analyzers.engine.rule"},
    }
    assert violations(graph) == [
        "xlalens.analyzers.core.source imports pygls.workspace, which xlalens.analyzers must never import",
        "xlalens.analyzers.models.pallas.model imports xlalens.analyzers.models.sharding.values: domain models "
        "xlalens.analyzers.models.pallas and xlalens.analyzers.models.sharding stay apart",
        "xlalens.analyzers.semantics.loops (xlalens.analyzers.semantics) imports "
        "xlalens.analyzers.engine.check_context from a higher layer (xlalens.analyzers.engine)",
        "xlalens.explainers.calculators.dtypes (xlalens.explainers) imports xlalens.analyzers.core.diagnostics "
        "from a higher layer (xlalens.analyzers.core)",
    ]


def test_a_cycle_is_caught() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_a_lazy_import_counts(tmp_path: Path) -> None:
    module = tmp_path / "evaluate.py"
    module.write_text("def f():\n    from xlalens.analyzers.models.sharding import shard_map\n", encoding="utf-8")
    found = imports_of(
        "xlalens.analyzers.semantics.interpreter", module, {"xlalens.analyzers.models.sharding.shard_map"}
    )
    assert found == {"xlalens.analyzers.models.sharding.shard_map"}
