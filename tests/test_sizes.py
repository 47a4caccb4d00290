"""Small modules and short functions: no module over 400 lines and no function over 60 in
core, bot, jobs and cli (migrations aside), read from the source itself. A function's
length runs from its ``def`` (or first decorator) to its last line, docstring included."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "bot", "jobs", "cli")
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
# Over a limit when this test landed, each to be split and then taken out of here:
# core/model.py grew to 411 lines with the booking details (180e3b0, landing meanwhile).
NOT_YET: frozenset[str] = frozenset({"core/model.py"})


def modules() -> list[Path]:
    found = [p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))]
    return [p for p in found if p.relative_to(ROOT).as_posix() not in NOT_YET]


def long_functions(path: Path) -> list[str]:
    """``file:line name (n lines)`` of every function or method over the limit."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(ROOT).as_posix()
    return [
        f"{where}:{node.lineno} {node.name} ({length} lines)"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := _length(node)) > MAX_FUNCTION_LINES
    ]


def _length(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return (node.end_lineno or node.lineno) - first + 1


def test_the_packages_are_there() -> None:
    assert len(modules()) > 100  # a wrong ROOT would pass everything below


def test_no_module_is_over_400_lines() -> None:
    over = [
        f"{p.relative_to(ROOT).as_posix()} ({n} lines)"
        for p in modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    ]
    assert over == [], "split by what each part holds: " + ", ".join(over)


def test_no_function_is_over_60_lines() -> None:
    over = [f for p in modules() for f in long_functions(p)]
    assert over == [], "break into steps with names: " + ", ".join(over)


def test_the_limits_are_measured_as_said() -> None:
    source = "def f():\n" + "    x = 1\n" * 60 + "\n\n@decorated\ndef g():\n    pass\n"
    tree = ast.parse(source)
    lengths = {n.name: _length(n) for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert lengths == {"f": 61, "g": 3}
