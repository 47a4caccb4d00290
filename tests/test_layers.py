"""The layers' import rules (docs/architecture.md, "Layers"), read from the source itself.

``core`` imports nothing of ours; ``bot`` and ``jobs`` import only ``core`` (of ours);
``migrations`` only ``core``; ``cli`` anything. In core, bot and jobs every import is at the
top of its module: an import inside a function is how a forbidden edge or a cycle hides.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = frozenset({"core", "bot", "jobs", "cli", "migrations", "tests", "bench", "dev"})
ALLOWED = {
    "core": frozenset(),
    "bot": frozenset({"core"}),
    "jobs": frozenset({"core"}),
    "migrations": frozenset({"core"}),
    "cli": frozenset({"core", "bot", "jobs", "migrations"}),
}
TOP_LEVEL_ONLY = frozenset({"core", "bot", "jobs"})
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@dataclass(frozen=True)
class Import:
    where: str  # file:line of the import statement
    layer: str  # the top-level package it is in
    target: str  # the imported module, absolute
    nested: bool  # inside a function or class body, not at the module's top

    @property
    def top(self) -> str:
        return self.target.split(".")[0]


def imports(root: Path) -> list[Import]:
    """Every import statement in the layers' modules under ``root``."""
    paths = [(layer, path) for layer in ALLOWED for path in sorted((root / layer).rglob("*.py"))]
    return [found for layer, path in paths for found in _imports(root, layer, path)]


def _imports(root: Path, layer: str, path: Path) -> list[Import]:
    name = path.relative_to(root)
    package = ".".join(name.with_suffix("").parts[:-1])
    found: list[Import] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, SCOPES)
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(Import(f"{name}:{child.lineno}", layer, alias.name, inner))
            elif isinstance(child, ast.ImportFrom):
                target = _absolute(child, package)
                found.append(Import(f"{name}:{child.lineno}", layer, target, inner))
            visit(child, inner)

    visit(ast.parse(path.read_text(), filename=str(path)), nested=False)
    return found


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    return ".".join([*parts[: len(parts) - node.level + 1], *filter(None, [node.module])])


def forbidden(found: list[Import]) -> list[str]:
    return [
        f"{i.where} imports {i.target}"
        for i in found
        if i.top in OURS and i.top != i.layer and i.top not in ALLOWED[i.layer]
    ]


def nested(found: list[Import]) -> list[str]:
    return [
        f"{i.where} imports {i.target} inside a function"
        for i in found
        if i.nested and i.layer in TOP_LEVEL_ONLY
    ]


def cycles(found: list[Import]) -> list[str]:
    edges = {layer: {i.top for i in found if i.layer == layer} - {layer} for layer in ALLOWED}

    def reaches(start: str, goal: str, seen: frozenset[str]) -> bool:
        steps = edges.get(start, set()) - seen
        return goal in steps or any(reaches(s, goal, seen | {s}) for s in steps)

    return [layer for layer in ALLOWED if reaches(layer, layer, frozenset())]


def test_each_layer_imports_only_the_layers_below_it() -> None:
    assert forbidden(imports(ROOT)) == []


def test_core_bot_and_jobs_import_only_at_the_top_of_a_module() -> None:
    assert nested(imports(ROOT)) == []


def test_no_cycle_between_top_level_packages() -> None:
    assert cycles(imports(ROOT)) == []


def test_the_rules_catch_what_they_forbid(tmp_path: Path) -> None:
    """Planted violations, in each form an import can take, are all found."""
    plant = {
        "core/operations/probe.py": "from ..store import holds\nimport bot.ids\n",
        "bot/listeners/probe.py": "def f():\n    from core import engine\n",
        "jobs/probe.py": "class C:\n    from cli import bootstrap\n",
        "cli/probe.py": "import jobs.clock\nfrom bot import ids\n",
    }
    for name, source in plant.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(source)
    found = imports(tmp_path)
    assert forbidden(found) == [
        "core/operations/probe.py:2 imports bot.ids",
        "jobs/probe.py:2 imports cli",
    ]
    assert nested(found) == [
        "bot/listeners/probe.py:2 imports core inside a function",
        "jobs/probe.py:2 imports cli inside a function",
    ]
    assert ("core/operations/probe.py:1", "core.store") in {(i.where, i.target) for i in found}
    assert cycles(found) == ["core", "bot", "jobs", "cli"]
