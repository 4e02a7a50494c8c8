"""Helpers the torch_xla rules share: the per-file model, step places, and how findings are worded."""

from __future__ import annotations

import ast

from xlalens.analyzers.core.diagnostics import MESSAGE_LIMIT, Range, RelatedLocation, Severity, shorten
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.models.torch_xla.model import Fact, Kind, StepPlace, TorchXlaModel, model_for

_MAX_SNIPPET = 48
_MIN_SNIPPET = 16


def model(ctx: CheckContext) -> TorchXlaModel:
    """The torch_xla model of the file being checked."""
    return model_for(ctx.index)


def step_place(ctx: CheckContext, node: ast.AST) -> StepPlace | None:
    """Where ``node`` runs once per training step; None outside step loops (or in files without torch_xla)."""
    found = model(ctx)
    return found.place(node) if found.enabled else None


def fact(ctx: CheckContext, node: ast.AST) -> Fact | None:
    """The torch_xla fact of an expression at the current node."""
    return model(ctx).fact(node, ctx.scope)


def is_tensor(value: Fact | None) -> bool:
    """Certainly a tensor (or a pytree of tensors) on an XLA device, not a module."""
    return value is not None and value.kind is Kind.TENSOR


def is_xla(value: Fact | None) -> bool:
    """A tensor on an XLA device, or a value moved there that is a tensor if it is used as one."""
    return value is not None and value.is_xla


def snippet(ctx: CheckContext, node: ast.AST, limit: int = _MAX_SNIPPET) -> str:
    """The source of ``node`` on one line, shortened to ``limit`` characters for a message."""
    return shorten(ctx.segment(node), limit)


def fitted(ctx: CheckContext, node: ast.AST, template: str) -> str:
    """``template`` with ``{}`` replaced by the quoted source of ``node``, shortened so that the
    headline stays within :data:`MESSAGE_LIMIT` characters where it can."""
    room = MESSAGE_LIMIT - len(template.replace("{}", "", 1)) - 2
    return template.replace("{}", f"`{snippet(ctx, node, max(_MIN_SNIPPET, min(40, room)))}`", 1)


def loop_location(ctx: CheckContext, place: StepPlace) -> tuple[RelatedLocation, ...]:
    """The step loop's header, as a related location."""
    loop = place.loop.node
    header = loop.iter if isinstance(loop, ast.For | ast.AsyncFor) else loop.test
    start = ctx.source.node_range(loop).start
    end = ctx.source.node_range(header).end
    return (RelatedLocation(ctx.path, Range(start, end), "the training step loop: this runs once per step"),)


def severity(place: StepPlace) -> Severity | None:
    """Info under an ``if step % N == 0:`` guard (the cost is paid every N steps), else the rule's own."""
    return Severity.INFO if place.guarded else None


def guard_note(place: StepPlace) -> str:
    """A sentence for the detail of findings about code under a modulo guard."""
    return "Here it runs only on the steps the `%` guard selects. " if place.guarded else ""
