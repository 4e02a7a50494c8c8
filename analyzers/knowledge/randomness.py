"""Which ``jax.random`` functions use up the key they are given.

A JAX PRNG key is a value: a sampler turns the same key into the same bits every time, so a key
must be handed to one consumer only. Samplers and ``split`` consume their key (``key`` is their
first parameter). ``fold_in`` derives a new key from a key and data and may be called on the
same key with different data; ``clone``, ``key_data``, ``key_impl`` and the constructors do not
consume anything.
"""

from __future__ import annotations

import ast

SAMPLERS = frozenset(
    {
        "ball",
        "bernoulli",
        "beta",
        "binomial",
        "bits",
        "categorical",
        "cauchy",
        "chisquare",
        "choice",
        "dirichlet",
        "double_sided_maxwell",
        "exponential",
        "f",
        "gamma",
        "generalized_normal",
        "geometric",
        "gumbel",
        "laplace",
        "loggamma",
        "logistic",
        "lognormal",
        "maxwell",
        "multinomial",
        "multivariate_normal",
        "normal",
        "orthogonal",
        "pareto",
        "permutation",
        "poisson",
        "rademacher",
        "randint",
        "rayleigh",
        "t",
        "triangular",
        "truncated_normal",
        "uniform",
        "wald",
        "weibull_min",
    }
)
"""``jax.random`` samplers (as of JAX 0.10): each draws from the bits of its ``key``."""

SPLITTERS = frozenset({"split"})
"""``jax.random`` functions that turn a key into new keys; the same key always gives the same ones."""


LAYER_KEY_PREFIXES = ("equinox.nn.",)
"""Libraries whose layer constructors take a ``key=`` and draw their initial parameters from it."""


def library_key_argument(qualname: str | None, call: ast.Call) -> ast.expr | None:
    """The key a library layer's constructor uses up (``eqx.nn.Linear(3, 4, key=k)``: ``k``), else None.

    Examples:
        >>> call = ast.parse("eqx.nn.Linear(3, 4, key=k)").body[0].value
        >>> ast.unparse(library_key_argument("equinox.nn.Linear", call))
        'k'
        >>> library_key_argument("flax.nnx.Linear", call) is None
        True
    """
    if qualname is None or not qualname.startswith(LAYER_KEY_PREFIXES):
        return None
    return next((k.value for k in call.keywords if k.arg == "key"), None)


def consumer_kind(qualname: str | None) -> str | None:
    """``"sample"`` or ``"split"`` for a ``jax.random`` function that uses up its key; None otherwise.

    Examples:
        >>> consumer_kind("jax.random.normal"), consumer_kind("jax.random.split"), consumer_kind("jax.random.fold_in")
        ('sample', 'split', None)
    """
    if qualname is None or not qualname.startswith("jax.random."):
        return None
    name = qualname[len("jax.random.") :]
    if name in SAMPLERS:
        return "sample"
    if name in SPLITTERS:
        return "split"
    return None


SAMPLER_SHAPES: dict[str, tuple[int, int | None, str]] = {
    "normal": (1, 2, "float32"),
    "uniform": (1, 2, "float32"),
    "gumbel": (1, 2, "float32"),
    "laplace": (1, 2, "float32"),
    "logistic": (1, 2, "float32"),
    "exponential": (1, 2, "float32"),
    "cauchy": (1, 2, "float32"),
    "rademacher": (1, 2, "int32"),
    "randint": (1, 4, "int32"),
    "truncated_normal": (3, 4, "float32"),
    "bernoulli": (2, None, "bool"),
}
"""Samplers whose result has exactly the shape they are given: name -> (position of ``shape``, position
of ``dtype`` or None, default dtype without x64). Checked under JAX 0.10.2: ``normal(key, (2, 3))`` is
``float32[2,3]``, ``randint(key, (2, 3), 0, 5)`` ``int32[2,3]``, ``bernoulli(key, 0.5, (2, 3))``
``bool[2,3]``; none is weakly typed."""
