"""Shared by the loop carry rules (JX301-JX303): where a carry mismatch comes from, and its path."""

from __future__ import annotations

from xlalens.analyzers.core.diagnostics import MESSAGE_LIMIT, RelatedLocation
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.models.tracing.carry_checks import CarryCheck
from xlalens.analyzers.models.tracing.carry_types import ContainerType, Leaf, Mismatch


def describe(tree: Leaf | ContainerType) -> str:
    """A type in JAX's notation (``float32[3]``) or a container's description."""
    return tree.describe()


def related(ctx: CheckContext, check: CarryCheck, mismatch: Mismatch) -> list[RelatedLocation]:
    """Where the body produces the offending output."""
    origin = mismatch.actual.origin or check.body
    return [
        RelatedLocation(
            ctx.path,
            ctx.source.node_range(origin),
            f"the {check.loop} body returns {describe(mismatch.actual)} here",
        )
    ]


def leaf_path(check: CarryCheck, mismatch: Mismatch) -> str:
    """The offending leaf's path, named after the body's carry parameter (``carry[1]['m']``)."""
    return check.carry_name + mismatch.path


def mismatch_text(check: CarryCheck, mismatch: Mismatch) -> str:
    """``Loop carry `c` starts as float32[3] but the fori_loop body returns float16[3]``."""
    return (
        f"Loop carry `{leaf_path(check, mismatch)}` starts as {describe(mismatch.expected)} but the "
        f"{check.loop} body returns {describe(mismatch.actual)}"
    )


def headline(check: CarryCheck, mismatch: Mismatch, what: str) -> str:
    """The mismatch with both types when that fits a headline, else just which ``what`` (``dtype``) changes."""
    text = mismatch_text(check, mismatch)
    if len(text) <= MESSAGE_LIMIT:
        return text
    return f"Loop carry `{leaf_path(check, mismatch)}` changes {what} in the {check.loop} body"
