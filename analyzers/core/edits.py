"""Edits that fixes share: adding an import where a module keeps its imports.

A fix that writes ``jnp.sin`` in a file that never imported ``jax.numpy`` must add the import too,
or the fixed file fails with ``NameError``. The statement goes after the module's leading imports
(after its docstring and ``from __future__`` lines when it has no other import), on a line of its
own, in the file's newline style.

Examples:
    >>> import ast
    >>> code = '\"\"\"Doc.\"\"\"\\nimport numpy as np\\n\\nx = np.zeros(3)\\n'
    >>> edit = import_edit(ast.parse(code), SourceText(code), "import jax.numpy as jnp")
    >>> at = SourceText(code).offset(edit.range.start)
    >>> print(code[:at] + edit.content + code[at:], end="")
    \"\"\"Doc.\"\"\"
    import numpy as np
    import jax.numpy as jnp
    <BLANKLINE>
    x = np.zeros(3)
"""

from __future__ import annotations

import ast

from xlalens.analyzers.core.diagnostics import Edit, Position, Range
from xlalens.analyzers.core.source import SourceText


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def import_edit(tree: ast.Module, source: SourceText, statement: str) -> Edit:
    """The edit that adds the import ``statement`` after the module's leading imports.

    Args:
        tree: The module.
        source: Its text.
        statement: The import, e.g. ``import jax.numpy as jnp``.
    """
    after: ast.stmt | None = None
    for position, node in enumerate(tree.body):
        if isinstance(node, ast.Import | ast.ImportFrom) or (position == 0 and _is_docstring(node)):
            after = node
        else:
            break
    line = (after.end_lineno or after.lineno) + 1 if after is not None else 1
    if line > len(source.lines) or (line == len(source.lines) and not source.text.endswith(("\n", "\r"))):
        # The import would follow the last line, which has no line break of its own.
        end = Position(len(source.lines), len(source.lines[-1]))
        separator = source.newline if source.lines[-1] else ""
        return Edit(Range(end, end), f"{separator}{statement}{source.newline}")
    start = Position(line, 0)
    return Edit(Range(start, start), f"{statement}{source.newline}")
