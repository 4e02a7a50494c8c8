"""Functions whose derivative is infinite or NaN somewhere, and the transforms that differentiate in reverse.

Reverse-mode differentiation of ``jnp.where(c, f(x), y)`` multiplies the cotangent that ``where``
sends to the masked-out side (zero) by ``f``'s derivative there. Where that derivative is infinite
(``sqrt`` at 0, ``log`` at 0, ``1/x`` at 0, ``arccos`` at 1) or NaN (``sqrt`` or ``log`` of a negative
number), ``0 * inf`` and ``0 * nan`` are NaN, and the NaN reaches the gradient although the forward
value is fine. Forward mode (``jvp``, ``jacfwd``) selects tangents with the same mask and stays finite.
Each entry was checked with ``jax.grad(lambda v: jnp.where(v > 5, f(v), 0.0))`` at the point it names
(JAX 0.10.2): every one gives a NaN gradient.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Singularity:
    """Where a function's derivative stops being finite.

    Attributes:
        argument: Position of the argument whose values matter (``divide``'s divisor is 1).
        where: The values at which the derivative is infinite or NaN, for messages.
    """

    argument: int
    where: str


_SINGULAR: dict[str, Singularity] = {}

REVERSE_MODE_TRANSFORMS = frozenset(
    {
        "jax.grad",
        "jax.value_and_grad",
        "jax.jacrev",
        "jax.hessian",
        "jax.vjp",
        "flax.nnx.grad",
        "flax.nnx.value_and_grad",
        "equinox.filter_grad",
        "equinox.filter_value_and_grad",
    }
)
"""Transforms that pull cotangents back through their function (``jacfwd``, ``jvp`` and ``linearize``
push tangents forward, which ``where`` masks before they meet the infinite derivative)."""


def register_singular_function(qualname: str, singularity: Singularity) -> None:
    """Record that ``qualname``'s derivative is infinite or NaN at ``singularity.where``.

    Raises:
        ValueError: if the name is already registered differently, or the argument position is negative.
    """
    if singularity.argument < 0:
        raise ValueError(f"{qualname}: argument position {singularity.argument} is negative")
    existing = _SINGULAR.get(qualname)
    if existing is not None and existing != singularity:
        raise ValueError(f"{qualname} is already registered as {existing}; known: {', '.join(sorted(_SINGULAR))}")
    _SINGULAR[qualname] = singularity


def singularity(qualname: str | None) -> Singularity | None:
    """Where ``qualname``'s derivative is not finite, or None for a function that is smooth everywhere.

    Examples:
        >>> singularity("jax.numpy.sqrt").where
        '0 and below'
        >>> singularity("jax.numpy.divide").argument
        1
        >>> singularity("jax.numpy.tanh") is None
        True
    """
    if qualname is None:
        return None
    return _SINGULAR.get(qualname)


def singular_exponent(exponent: object) -> bool:
    """Whether ``x ** exponent`` has a non-finite derivative somewhere: negative or non-integer exponents.

    Examples:
        >>> singular_exponent(0.5), singular_exponent(-1), singular_exponent(2), singular_exponent(2.0)
        (True, True, False, False)
    """
    if isinstance(exponent, bool) or not isinstance(exponent, int | float):
        return False
    return exponent < 0 or exponent != int(exponent)


def _register_all() -> None:
    at_zero_and_below = Singularity(0, "0 and below")
    at_zero = Singularity(0, "0")
    at_plus_minus_one = Singularity(0, "-1, 1 and beyond")
    for module in ("jax.numpy", "jax.lax"):
        register_singular_function(f"{module}.sqrt", at_zero_and_below)
        register_singular_function(f"{module}.log", at_zero_and_below)
        register_singular_function(f"{module}.log1p", Singularity(0, "-1 and below"))
        register_singular_function(f"{module}.cbrt", at_zero)
    register_singular_function("jax.numpy.log2", at_zero_and_below)
    register_singular_function("jax.numpy.log10", at_zero_and_below)
    register_singular_function("jax.numpy.reciprocal", at_zero)
    register_singular_function("jax.lax.rsqrt", at_zero_and_below)
    for name in ("arcsin", "arccos", "arctanh"):
        register_singular_function(f"jax.numpy.{name}", at_plus_minus_one)
    for name in ("asin", "acos", "atanh"):
        register_singular_function(f"jax.lax.{name}", at_plus_minus_one)
    for name in ("jax.numpy.divide", "jax.numpy.true_divide", "jax.lax.div"):
        register_singular_function(name, Singularity(1, "0"))
    register_singular_function("jax.numpy.linalg.norm", at_zero)
    register_singular_function("jax.scipy.special.xlogy", Singularity(1, "0 and below"))


GUARDING_FUNCTIONS = frozenset(
    {
        "jax.numpy.where",
        "jax.numpy.maximum",
        "jax.numpy.minimum",
        "jax.numpy.clip",
        "jax.numpy.fmax",
        "jax.numpy.fmin",
        "jax.numpy.nan_to_num",
        "jax.lax.max",
        "jax.lax.min",
        "jax.lax.clamp",
        "jax.lax.select",
        "jax.lax.stop_gradient",
    }
)
"""Functions whose result can keep a singular function's argument away from its singular points (the inner
``where`` of the double-``where`` pattern, a clamp) or out of the gradient (``stop_gradient``)."""

_register_all()
