"""Which JAX APIs trace the functions they are given, and how.

A *transform* turns a Python function into something that runs it on tracers. Whether a
Python ``if`` on an argument then fails depends on the transform: ``jit`` and the control-flow
primitives trace with abstract values (so it fails); ``vmap`` batches (so it fails too, though
constants built inside stay concrete); ``grad`` alone keeps concrete primal values (so it works).
The registry below records, per fully qualified name, where the traced function sits among the
call's arguments, which of its parameters are traced, and whether constants created inside the
function are staged out (traced) as well.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ParamTracing(enum.Enum):
    """How a transform treats the traced function's parameters."""

    ALL = "all"
    """Every leaf of every non-static argument becomes a tracer (``jax.jit``)."""
    ARRAYS_ONLY = "arrays-only"
    """Only array leaves are traced; Python scalars stay static (``equinox.filter_jit``)."""
    IN_AXES = "in-axes"
    """Arguments mapped with ``in_axes=None`` pass through untouched (``jax.vmap``)."""
    NONE = "none"
    """Arguments keep concrete values (``jax.grad`` on its own)."""


class FunctionSlot(enum.Enum):
    """Where the traced function(s) sit in the transform call."""

    FIRST = "first"
    """``jax.jit(f, ...)``, ``lax.scan(f, ...)``."""
    CONTROL_FLOW = "control-flow"
    """The function parameters of a ``jax.lax`` control-flow primitive, as
    :mod:`~xlalens.analyzers.knowledge.lax_control_flow` lists them (``fori_loop``'s ``body_fun``,
    ``while_loop``'s ``cond_fun`` and ``body_fun``, ``cond``'s branches, each of ``switch``'s)."""


@dataclass(frozen=True, slots=True)
class TransformSpec:
    """How one transform traces the function it is given.

    Attributes:
        name: The fully qualified name, e.g. ``"jax.jit"``.
        slot: Where the traced function sits among the call's arguments.
        params: How the function's parameters are treated.
        stages: Whether constants created inside the function are traced too (true for
            everything that builds a jaxpr: ``jit``, ``scan`` bodies, ``checkpoint``…).
        static_keywords: Keywords naming static parameters, by number or by name.
        is_jit: Whether this is a jit-like wrapper (compiled, cached by function identity).
    """

    name: str
    slot: FunctionSlot
    params: ParamTracing
    stages: bool
    static_keywords: tuple[str, ...] = ()
    is_jit: bool = False


PER_DEVICE_TRANSFORMS: dict[str, str] = {
    **dict.fromkeys(("jax.pmap", "flax.nnx.pmap", "equinox.filter_pmap"), "map"),
    **dict.fromkeys(("jax.shard_map", "jax.experimental.shard_map.shard_map", "flax.nnx.shard_map"), "shard"),
}
"""Transforms whose function sees one device's part of each argument: a slice of the leading axis
(``pmap``) or the block its spec gives (``shard_map``), not the global array."""

LINEN_APPLY = "flax.linen.Module.apply"
"""``module.apply(variables, *args)`` of a linen module: its ``__call__`` on ``args``."""
LINEN_INIT = "flax.linen.Module.init"
"""``module.init(rngs, *args)`` of a linen module: runs its ``__call__`` on ``args``, returns the variables."""
LINEN_METHODS = frozenset({LINEN_APPLY, LINEN_INIT})

CALL_KINDS: dict[str, str] = {
    **dict.fromkeys(
        (
            "jax.jit",
            "jax.checkpoint",
            "jax.remat",
            "jax.ad_checkpoint.checkpoint",
            "jax.named_call",
            "flax.nnx.jit",
            "flax.nnx.remat",
            "equinox.filter_jit",
        ),
        "same",
    ),
    **dict.fromkeys(("jax.grad", "flax.nnx.grad", "equinox.filter_grad"), "grad"),
    **dict.fromkeys(
        ("jax.value_and_grad", "flax.nnx.value_and_grad", "equinox.filter_value_and_grad"), "value_and_grad"
    ),
    **dict.fromkeys(("jax.jacfwd", "jax.jacrev", "jax.hessian"), "jacobian"),
    **dict.fromkeys(("jax.vmap", "flax.nnx.vmap", "equinox.filter_vmap"), "map"),
    LINEN_APPLY: "apply",
    LINEN_INIT: "init",
}
"""Transforms ``T`` for which ``T(f, ...)(args)`` runs ``f`` on ``args``, by what the call returns:
``same`` (``f``'s result: jit, checkpoint), ``grad`` (the gradient, shaped like the differentiated
argument), ``value_and_grad`` (both), ``jacobian`` (a Jacobian), ``map`` (``f`` on slices of the
arguments, results stacked), ``apply`` (a linen module's ``__call__`` on the arguments after the
variables) and ``init`` (the same run, returning the variables)."""

_TRANSFORMS: dict[str, TransformSpec] = {}

_JIT_STATICS = ("static_argnums", "static_argnames")


def register_transform(spec: TransformSpec) -> None:
    """Record how ``spec.name`` traces its function.

    Raises:
        ValueError: if the name is already registered with a different spec.
    """
    existing = _TRANSFORMS.get(spec.name)
    if existing is not None and existing != spec:
        raise ValueError(
            f"transform {spec.name} is already registered; known transforms: {', '.join(sorted(_TRANSFORMS))}"
        )
    _TRANSFORMS[spec.name] = spec


def transform_spec(qualname: str | None) -> TransformSpec | None:
    """The spec for ``qualname``, or None when it is not a known transform.

    Examples:
        >>> transform_spec("jax.jit").is_jit
        True
        >>> transform_spec("jax.lax.fori_loop").slot
        <FunctionSlot.CONTROL_FLOW: 'control-flow'>
        >>> transform_spec("jax.numpy.sum") is None
        True
    """
    if qualname is None:
        return None
    return _TRANSFORMS.get(qualname)


def jit_transforms() -> frozenset[str]:
    """The qualified names of every jit-like transform (``jax.jit``, ``flax.nnx.jit``, ...).

    Examples:
        >>> "jax.jit" in jit_transforms(), "jax.vmap" in jit_transforms()
        (True, False)
    """
    return frozenset(name for name, spec in _TRANSFORMS.items() if spec.is_jit)


def known_transforms() -> list[str]:
    """Every registered transform name, sorted."""
    return sorted(_TRANSFORMS)


def _register_all() -> None:
    jit_like = [
        ("jax.jit", _JIT_STATICS),
        # Deprecated in JAX 0.8.0 but still a jit (JX702 reports it). There never was a `jax.pjit`.
        ("jax.experimental.pjit.pjit", _JIT_STATICS),
        ("jax.pmap", ("static_broadcasted_argnums",)),
        ("flax.nnx.jit", _JIT_STATICS),
        ("flax.nnx.pmap", ("static_broadcasted_argnums",)),
    ]
    for name, statics in jit_like:
        register_transform(TransformSpec(name, FunctionSlot.FIRST, ParamTracing.ALL, True, statics, True))
    for name in ("equinox.filter_jit", "equinox.filter_pmap"):
        register_transform(TransformSpec(name, FunctionSlot.FIRST, ParamTracing.ARRAYS_ONLY, True, (), True))
    for name in (
        "jax.checkpoint",
        "jax.remat",
        # Removed in JAX 0.10.0 (JX711 reports it); older code that still uses it traces the same way.
        "jax.ad_checkpoint.checkpoint",
        "jax.make_jaxpr",
        "jax.eval_shape",
        "jax.shard_map",
        "jax.experimental.shard_map.shard_map",
        "jax.lax.scan",
        "jax.lax.map",
        "jax.lax.associative_scan",
        "flax.nnx.remat",
        "flax.nnx.scan",
        "flax.nnx.shard_map",
        "jax.experimental.pallas.pallas_call",
    ):
        statics = ("static_argnums",) if name in ("jax.checkpoint", "jax.remat", "jax.make_jaxpr") else ()
        register_transform(TransformSpec(name, FunctionSlot.FIRST, ParamTracing.ALL, True, statics))
    for name in ("jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.cond", "jax.lax.switch"):
        register_transform(TransformSpec(name, FunctionSlot.CONTROL_FLOW, ParamTracing.ALL, True))
    for name in ("jax.vmap", "flax.nnx.vmap", "equinox.filter_vmap"):
        register_transform(TransformSpec(name, FunctionSlot.FIRST, ParamTracing.IN_AXES, False))
    for name in (
        "jax.grad",
        "jax.value_and_grad",
        "jax.jacfwd",
        "jax.jacrev",
        "jax.hessian",
        "flax.nnx.grad",
        "flax.nnx.value_and_grad",
        "equinox.filter_grad",
        "equinox.filter_value_and_grad",
    ):
        register_transform(TransformSpec(name, FunctionSlot.FIRST, ParamTracing.NONE, False))


_register_all()
