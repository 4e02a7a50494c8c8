"""Inferred ``dtype[shape]`` annotations of array-valued assignments.

The language server shows them as inlay hints and ``xlalens annotate`` prints them inline, together
with the span hints of :mod:`.hints` (a Pallas grid's step count, each block's origin, and the like). Only
values the abstract interpreter is certain of are annotated: a JAX array whose dtype and every
dimension are known, assigned by a statement whose value is the same every time it runs. An
assignment inside a loop that reads a name the loop rebinds, or that reads a name some function
declares ``global``, may see a different value on a later run than the one the interpreter
followed, so it is not annotated.

Examples:
    >>> code = "import jax.numpy as jnp\\nw = jnp.zeros((128, 512))\\nb = jnp.ones(512, jnp.bfloat16)\\n"
    >>> [(a.target, a.label) for a in annotate_source(code)]
    [('w', 'f32[128,512]'), ('b', 'bf16[512]')]
    >>> print(render_inline(code, annotate_source(code)), end="")
    import jax.numpy as jnp
    w: f32[128,512] = jnp.zeros((128, 512))
    b: bf16[512] = jnp.ones(512, jnp.bfloat16)
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from xlalens.analyzers.core import type_params
from xlalens.analyzers.core.diagnostics import Position
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.models import checkpoint_hints as _checkpoint_hints  # noqa: F401
from xlalens.analyzers.models import matmul_hints as _matmul_hints  # noqa: F401
from xlalens.analyzers.models.extensions import module_interpreter
from xlalens.analyzers.models.hints import SpanHint, hint_providers

# Imported for their registration: each built-in domain registers its hint provider.
from xlalens.analyzers.models.pallas import hints as _pallas_hints  # noqa: F401
from xlalens.analyzers.models.sharding import hints as _sharding_hints  # noqa: F401
from xlalens.analyzers.models.torch_xla import hints as _torch_xla_hints  # noqa: F401
from xlalens.analyzers.models.tracing import hints as _carry_hints  # noqa: F401
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import ModuleIndex, Scope
from xlalens.analyzers.semantics.values import Array
from xlalens.explainers.calculators import dtypes

# Comprehensions run their element expression once per item, like a loop body.
_LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_NEW_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


@dataclass(frozen=True, slots=True)
class Annotation:
    """The inferred type of one assignment target.

    Attributes:
        position: Where the label belongs: right after the target name.
        target: The assigned name.
        dtype: The dtype name (``"float32"``).
        shape: Every dimension, all known.
        weak_type: Whether JAX treats the dtype as weak (it came from a Python scalar).
    """

    position: Position
    target: str
    dtype: str
    shape: tuple[int, ...]
    weak_type: bool = False

    @property
    def label(self) -> str:
        """The short notation, ``f32[128,512]``; a weak type gets a ``~`` prefix (``~f32[]``)."""
        return dtypes.aval(self.dtype, self.shape, self.weak_type)

    @property
    def description(self) -> str:
        """The long form for tooltips: ``float32 array of shape (128, 512)``."""
        weak = "weakly typed " if self.weak_type else ""
        return f"{weak}{self.dtype} array of shape {self.shape!r}"


def annotate_source(source: str, path: str = "<string>") -> list[Annotation | SpanHint]:
    """The annotations of every array-valued assignment whose dtype and shape are certain, and the Pallas hints.

    Covers plain assignments (``x = ...``, ``a, b = ...``) and ``:=``. Assignments that already
    carry a type annotation (``x: jax.Array = ...``) are left alone, as are files that do not
    mention JAX; a file that mentions torch_xla but not JAX gets only the hints (its ``mark_sharding``
    shards).

    Args:
        source: The file's text.
        path: The file's name, for syntax errors.

    Returns:
        The annotations in source order.

    Raises:
        SyntaxError: if ``source`` does not parse with the running Python.
    """
    tree = _parse(source, path)
    if "jax" not in source and "torch_xla" not in source:
        return []
    index = ModuleIndex(tree, {ast.Call, ast.NamedExpr})
    interpreter = module_interpreter(index)
    text = SourceText(source)
    declared_global = {name for scope in index.functions for name in scope.global_names}
    loop_rebound = _loop_rebound_names(tree)
    found: list[Annotation | SpanHint] = list(span_hints(index, interpreter, text))
    if "jax" not in source:
        return found
    statements = [*index.nodes[ast.Assign], *index.nodes[ast.NamedExpr]]
    for node, scope in statements:
        assert isinstance(node, ast.Assign | ast.NamedExpr)
        unstable = declared_global | loop_rebound.get(id(node), frozenset())
        if unstable and any(isinstance(n, ast.Name) and n.id in unstable for n in ast.walk(node.value)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for name in _target_names(targets):
            annotation = _annotation(name, scope, interpreter, text)
            if annotation is not None:
                found.append(annotation)
    return sorted(found, key=lambda a: a.position)


def span_hints(index: ModuleIndex, interpreter: Interpreter, text: SourceText) -> list[SpanHint]:
    """The hints of every registered provider for one module, in source order.

    Examples:
        >>> sorted(hint_providers())
        ['carry', 'matmul', 'pallas', 'remat', 'sharding', 'torch_xla_sharding']
    """
    found = [hint for provider in hint_providers().values() for hint in provider(index, interpreter, text)]
    return sorted(found, key=lambda hint: hint.position)


def hints_for_source(source: str, provider: str | None = None) -> list[SpanHint]:
    """The span hints of a module given as text, of every provider or of the one named ``provider``.

    Examples:
        >>> code = "from jax import lax\\nc = lax.fori_loop(0, 3, lambda i, c: c + 1.5, 0.0)\\n"
        >>> [hint.label for hint in hints_for_source(code, "carry")]
        ['carry ~f32[]']
    """
    index = ModuleIndex(ast.parse(source), {ast.Call})
    interpreter, text = module_interpreter(index), SourceText(source)
    if provider is None:
        return span_hints(index, interpreter, text)
    return hint_providers()[provider](index, interpreter, text)


def inline_label(annotation: Annotation | SpanHint) -> str:
    """The text shown inline: ``: f32[3]`` after a target, ``→ 2 steps`` after a construct."""
    return f": {annotation.label}" if isinstance(annotation, Annotation) else f"→ {annotation.label}"


def render_inline(source: str, annotations: Sequence[Annotation | SpanHint]) -> str:
    """``source`` with ``: label`` written after each annotated target and ``→ label`` after each construct.

    The result is for reading, not running: a tuple target becomes ``a: f32[3], b: f32[4] = ...``.
    """
    text = SourceText(source)
    pieces: list[str] = []
    cursor = 0
    for annotation in sorted(annotations, key=lambda a: a.position):
        offset = text.offset(annotation.position)
        pieces.append(source[cursor:offset])
        pieces.append(
            inline_label(annotation) if isinstance(annotation, Annotation) else f" {inline_label(annotation)}"
        )
        cursor = offset
    pieces.append(source[cursor:])
    return "".join(pieces)


def _parse(source: str, path: str) -> ast.Module:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            return ast.parse(source, filename=path)
    except ValueError as error:  # a null byte in the source
        raise SyntaxError(str(error)) from None
    except SyntaxError:
        tree = type_params.parse(source, path)  # Python 3.12 type parameters, read at exact positions
        if tree is None:
            raise
        return tree


def _target_names(targets: Sequence[ast.expr]) -> Iterator[ast.Name]:
    for target in targets:
        if isinstance(target, ast.Name):
            yield target
        elif isinstance(target, ast.Tuple | ast.List):
            yield from _target_names(target.elts)


def _annotation(name: ast.Name, scope: Scope, interpreter: Interpreter, text: SourceText) -> Annotation | None:
    value = interpreter.value_of(name, scope)
    if not (isinstance(value, Array) and value.library == "jax" and value.dtype and value.shape is not None):
        return None
    shape = tuple(dim for dim in value.shape if dim is not None)
    if len(shape) != len(value.shape):
        return None
    return Annotation(text.node_range(name).end, name.id, value.dtype, shape, value.weak_type)


def _loop_rebound_names(tree: ast.Module) -> dict[int, frozenset[str]]:
    """``id(assignment)`` -> the names rebound by the outermost loop around it (same function).

    The interpreter follows a loop body twice and joins; a value that depends on state carried
    around the loop may differ on later iterations, so such assignments are not certain.
    """
    rebound: dict[int, frozenset[str]] = {}
    # Iterative: long expression chains nest deeper than Python's recursion limit allows.
    stack: list[tuple[ast.AST, frozenset[str] | None]] = [(tree, None)]
    while stack:
        node, loop_names = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _NEW_SCOPES):
                stack.append((child, None))  # a new function starts outside any loop
                continue
            names = loop_names
            if names is None and isinstance(child, _LOOPS):
                names = _bound_names(child)
            if names is not None and isinstance(child, ast.Assign | ast.NamedExpr):
                rebound[id(child)] = names
            stack.append((child, names))
    return rebound


def _bound_names(loop: ast.AST) -> frozenset[str]:
    """Names stored anywhere inside ``loop`` (not inside nested functions or classes)."""
    names: set[str] = set()
    stack = [loop]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _NEW_SCOPES):
                continue
            if isinstance(child, ast.Name) and not isinstance(child.ctx, ast.Load):
                names.add(child.id)
            stack.append(child)
    return frozenset(names)
