"""A view of one scope of a module: what any analysis asks while it looks at a node.

The loop analysis, the carry types and the domain models look at expressions the way rules do:
their abstract value, the qualified name they resolve to, their source text. :class:`ScopeView`
answers those three questions for the scope it is pointed at; the engine's rule-facing context
extends it with what only rules need (reporting findings, settings).
"""

from __future__ import annotations

import ast

from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import ModuleIndex, Scope
from xlalens.analyzers.semantics.values import Value


class ScopeView:
    """One module's index, interpreter and text, pointed at a scope.

    Examples:
        >>> code = "import jax.numpy as jnp\\nx = jnp.zeros((2, 3))\\n"
        >>> index = ModuleIndex(ast.parse(code), [])
        >>> view = ScopeView(index, Interpreter(index, {}), SourceText(code))
        >>> call = index.tree.body[1].value
        >>> view.value(call).describe(), view.qualname(call.func), view.segment(call)
        ('float32[2,3]', 'jax.numpy.zeros', 'jnp.zeros((2, 3))')
    """

    def __init__(self, index: ModuleIndex, interpreter: Interpreter, source: SourceText) -> None:
        self.index = index
        self.interpreter = interpreter
        self.source = source
        self.scope: Scope = index.module_scope

    def value(self, node: ast.AST) -> Value:
        """The abstract value of an expression in the current scope."""
        return self.interpreter.value_of(node, self.scope)

    def qualname(self, node: ast.AST) -> str | None:
        """The fully qualified name of a ``Name``/``Attribute`` expression, if it is an import."""
        return self.index.qualname(node, self.scope)

    def segment(self, node: ast.AST) -> str:
        """The exact source text of a node."""
        return self.source.segment(self.source.node_range(node))
