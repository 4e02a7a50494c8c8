"""Imports that fixes leave unused: a rewrite that stops using an import takes the import with it.

A fix that rewrites ``jax.experimental.shard_map.shard_map(...)`` to ``jax.shard_map(...)`` leaves
``import jax.experimental.shard_map`` behind with nothing reading it (pyflakes' F401). An import
is *orphaned* when the text before the fixes read it and the text after them does not: only those
are removed, never an import the user had left unused, and only a statement that imports that one
name (a shared ``import a, b`` statement stays as it is).

Examples:
    >>> before = "import jax\\nimport jax.experimental.shard_map\\nf = jax.experimental.shard_map.shard_map\\n"
    >>> after = "import jax\\nimport jax.experimental.shard_map\\nf = jax.shard_map\\n"
    >>> print(remove_orphaned_imports(before, after), end="")
    import jax
    f = jax.shard_map
    >>> kept = "import os\\nx = 1\\n"
    >>> remove_orphaned_imports(kept, kept) == kept
    True
"""

from __future__ import annotations

import ast
import re
from collections import Counter

from xlalens.analyzers.core import type_params

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def remove_orphaned_imports(before: str, after: str) -> str:
    """``after`` without the single-name import statements it no longer reads but ``before`` did."""
    try:
        old_tree, new_tree = _parse(before), _parse(after)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return after
    old_uses = _uses(old_tree)
    new_uses = _uses(new_tree)
    imports = _imports(new_tree)
    doomed = [
        statement
        for statement in imports
        if old_uses[_used_as(statement)]
        and not new_uses[_used_as(statement)]
        and _top_name_survives(statement, imports, new_uses)
    ]
    if not doomed:
        return after
    text = _delete_statements(after, doomed)
    try:
        _parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return after
    return text


def _parse(text: str) -> ast.Module:
    """The tree of ``text`` as the analysis reads it, Python 3.12 type parameters and f-strings included."""
    try:
        return ast.parse(text)
    except SyntaxError:
        newer = type_params.parse(text)
        if newer is None:
            raise
        return newer


def _imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Module-level import statements of one name (not ``*``, not ``__future__``)."""
    found: list[ast.Import | ast.ImportFrom] = []
    for statement in tree.body:
        if isinstance(statement, ast.Import | ast.ImportFrom) and len(statement.names) == 1:
            if statement.names[0].name == "*" or (
                isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
            ):
                continue
            found.append(statement)
    return found


def _used_as(statement: ast.Import | ast.ImportFrom) -> str:
    """How code reads what ``statement`` imports: the bound name, or the dotted path of ``import a.b``."""
    alias = statement.names[0]
    if alias.asname is not None or isinstance(statement, ast.ImportFrom):
        return alias.asname or alias.name
    return alias.name


def _top_name_survives(
    statement: ast.Import | ast.ImportFrom, imports: list[ast.Import | ast.ImportFrom], uses: Counter[str]
) -> bool:
    """Whether removing ``import a.b`` leaves ``a`` bound wherever it is still read.

    ``import a.b`` binds ``a`` too: after ``jax.experimental.shard_map.shard_map`` became
    ``jax.shard_map``, the import may be the only one that binds ``jax``.
    """
    alias = statement.names[0]
    if isinstance(statement, ast.ImportFrom) or alias.asname is not None or "." not in alias.name:
        return True
    top = alias.name.split(".", 1)[0]
    if not uses[top]:
        return True
    return any(
        other is not statement
        and isinstance(other, ast.Import)
        and any(name.asname is None and name.name.split(".", 1)[0] == top for name in other.names)
        for other in imports
    )


def _uses(tree: ast.Module) -> Counter[str]:
    """How often each name and each dotted prefix of an attribute chain (``a``, ``a.b``, ``a.b.c``) is read."""
    counts: Counter[str] = Counter()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store):
            counts[node.id] += 1
        elif isinstance(node, ast.Attribute):
            parts = [node.attr]
            value = node.value
            while isinstance(value, ast.Attribute):
                parts.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name):
                counts[".".join([value.id, *reversed(parts)])] += 1
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            counts.update(name.strip() for name in _DUNDER_ALL.findall(node.value))
    return counts


_DUNDER_ALL = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*$")
"""A string that is just a name may export it (``__all__``): such an import counts as read."""


def _delete_statements(text: str, statements: list[ast.Import | ast.ImportFrom]) -> str:
    lines = _LINE_BREAK.split(text)
    breaks = _LINE_BREAK.findall(text)
    drop: set[int] = set()
    for statement in statements:
        first, last = statement.lineno - 1, (statement.end_lineno or statement.lineno) - 1
        prefix = lines[first].encode("utf-8")[: statement.col_offset]
        suffix = lines[last].encode("utf-8")[statement.end_col_offset or 0 :]
        if prefix.strip() or suffix.strip():
            continue  # shares its lines with other code or a comment: left as it is
        drop.update(range(first, last + 1))
    kept: list[str] = []
    for number, line in enumerate(lines):
        if number in drop:
            continue
        kept.append(line + (breaks[number] if number < len(breaks) else ""))
    return "".join(kept)
