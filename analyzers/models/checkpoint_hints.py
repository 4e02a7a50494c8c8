"""Hints for ``jax.checkpoint`` (remat): what its policy keeps for the backward pass, and the remat calculator.

``jax.checkpoint(f)``, ``jax.remat(f)``, ``@jax.checkpoint`` and ``partial(jax.checkpoint, policy=...)``
get a hint naming what the backward pass finds saved: with no policy (JAX's default, which keeps
the same residuals as ``nothing_saveable``) only ``f``'s inputs, with ``dots_saveable`` the matmul
outputs too, with ``everything_saveable`` everything. A hover shows the remat calculator with that
policy on the calculator's example stack of layers (the layer sizes are not in the call), where the
reader types their own. Policies the calculator does not model get no hint.

Examples:
    >>> code = '''
    ... import jax
    ... layer = jax.checkpoint(lambda x: x, policy=jax.checkpoint_policies.dots_saveable)
    ... '''
    >>> from xlalens.analyzers.annotate import hints_for_source
    >>> [(hint.label, dict(hint.inputs)) for hint in hints_for_source(code, "remat")]
    [('remat: keeps inputs and matmul outputs', {'policy': 'dots_saveable'})]
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.models.hints import SpanHint, register_hint_provider
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import ModuleIndex, Scope

REMAT_CALCULATOR = "remat"
_CHECKPOINTS = frozenset({"jax.checkpoint", "jax.remat", "jax.ad_checkpoint.checkpoint", "jax.ad_checkpoint.remat"})
_PARTIAL = "functools.partial"
_POLICY_PREFIXES = ("jax.checkpoint_policies.", "jax.ad_checkpoint.checkpoint_policies.")
# What each policy the calculator models keeps, as print_saved_residuals lists it in JAX 0.10.2:
# no policy keeps exactly what nothing_saveable keeps.
_KEPT = {
    "nothing_saveable": "keeps only its inputs",
    "dots_saveable": "keeps inputs and matmul outputs",
    "everything_saveable": "keeps every residual",
}


def checkpoint_hints(index: ModuleIndex, interpreter: Interpreter, text: SourceText) -> list[SpanHint]:
    """A hint for every ``jax.checkpoint``/``jax.remat`` whose policy the remat calculator models."""
    del interpreter  # the call's own text says all the hint uses
    hints = []
    for node, keywords, scope in _checkpoints(index):
        policy = _policy(keywords, index, scope)
        if policy is None:
            continue
        kept = _KEPT[policy]
        shown = "no policy" if not any(k.arg == "policy" for k in keywords) else f"policy {policy}"
        hints.append(
            SpanHint(
                position=text.node_range(node).end,
                target="remat",
                label=f"remat: {kept}",
                description=(
                    f"`jax.checkpoint` with {shown} {kept} for the backward pass, which recomputes the rest; "
                    "the table is the calculator's example layer stack with this policy"
                ),
                span=text.node_range(node),
                calculator=REMAT_CALCULATOR,
                inputs={"policy": policy},
            )
        )
    return sorted(hints, key=lambda hint: hint.position)


register_hint_provider("remat", checkpoint_hints)


def _checkpoints(index: ModuleIndex) -> Iterator[tuple[ast.expr, list[ast.keyword], Scope]]:
    """Each checkpoint with its keywords: calls, ``partial(jax.checkpoint, ...)`` and bare decorators."""
    for node, scope in index.nodes.get(ast.Call, []):
        assert isinstance(node, ast.Call)
        name = index.qualname(node.func, scope)
        partial = name == _PARTIAL and bool(node.args) and index.qualname(node.args[0], scope) in _CHECKPOINTS
        if name in _CHECKPOINTS or partial:
            yield node, node.keywords, scope
    for function in index.functions:
        node, outer = function.node, function.parent
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or outer is None:
            continue
        for decorator in node.decorator_list:  # decorators are evaluated in the enclosing scope
            if isinstance(decorator, ast.Name | ast.Attribute) and index.qualname(decorator, outer) in _CHECKPOINTS:
                yield decorator, [], outer


def _policy(keywords: list[ast.keyword], index: ModuleIndex, scope: Scope) -> str | None:
    """The calculator's name for the call's policy; ``None`` for a policy it does not model or an unknown one."""
    if any(keyword.arg is None for keyword in keywords):
        return None  # ``**options`` may set the policy
    expr = next((keyword.value for keyword in keywords if keyword.arg == "policy"), None)
    if expr is None or (isinstance(expr, ast.Constant) and expr.value is None):
        return "nothing_saveable"
    name = index.qualname(expr, scope) or ""
    for prefix in _POLICY_PREFIXES:
        if name.startswith(prefix) and name.removeprefix(prefix) in _KEPT:
            return name.removeprefix(prefix)
    return None
