"""64-bit dtypes in JAX's default 32-bit mode, where JAX functions take a dtype, and how code turns x64 on.

With ``jax_enable_x64`` off (the default), a JAX function asked for ``float64``, ``int64``, ``uint64`` or
``complex128`` warns once (``Explicitly requested dtype float64 requested in zeros is not available, and
will be truncated to dtype float32``) and computes in the 32-bit type. Python's ``float`` and ``int`` as a
dtype mean "the default type" and give float32/int32 without a warning. Checked with JAX 0.10.2:
``jnp.zeros``, ``jnp.arange``, ``jnp.asarray`` (also positional), ``.astype``, ``jnp.float64(x)``,
``jax.random.normal`` and ``lax.convert_element_type`` all truncate.

x64 is turned on by ``jax.config.update("jax_enable_x64", True)``, by the environment variable
``JAX_ENABLE_X64`` read when JAX is imported, or for a block by ``with jax.enable_x64(True):``
(``jax.experimental.enable_x64`` in older releases).
"""

from __future__ import annotations

from xlalens.explainers.calculators import dtypes

_DTYPE_MODULES = ("jax.numpy.", "numpy.")

X64_STRINGS = frozenset({"jax_enable_x64", "JAX_ENABLE_X64"})
"""The option's name as the config and the environment spell it; a module that names it may turn x64 on."""

X64_ATTRIBUTES = frozenset({"enable_x64", "jax_enable_x64", "x64_enabled"})
"""Attributes that switch x64 on for a block (``jax.enable_x64``) or read the setting (``jax.config.x64_enabled``)."""

_DTYPE_POSITIONS: dict[str, int] = {}


def register_dtype_position(qualname: str, position: int) -> None:
    """Record that ``qualname`` takes its dtype as positional argument ``position`` (0-based).

    Raises:
        ValueError: if the name is already registered at another position, or the position is negative.
    """
    if position < 0:
        raise ValueError(f"{qualname}: dtype position {position} is negative")
    existing = _DTYPE_POSITIONS.get(qualname)
    if existing is not None and existing != position:
        raise ValueError(f"{qualname} already takes its dtype at position {existing}")
    _DTYPE_POSITIONS[qualname] = position


def dtype_position(qualname: str | None) -> int | None:
    """Where ``qualname`` takes a positional dtype, or None.

    Examples:
        >>> dtype_position("jax.numpy.zeros"), dtype_position("jax.numpy.full"), dtype_position("jax.numpy.sum")
        (1, 2, None)
    """
    return _DTYPE_POSITIONS.get(qualname or "")


def truncated_dtype(qualname_or_const: str | None) -> tuple[str, str] | None:
    """``(requested, computed)`` for a 64-bit dtype that JAX truncates in 32-bit mode, else None.

    ``qualname_or_const`` is the qualified name of a dtype (``jax.numpy.float64``, ``numpy.int64``) or a
    string constant (``"float64"``, ``"complex128"``).

    Examples:
        >>> truncated_dtype("jax.numpy.float64"), truncated_dtype("numpy.int64"), truncated_dtype("complex128")
        (('float64', 'float32'), ('int64', 'int32'), ('complex128', 'complex64'))
        >>> truncated_dtype("builtins.float"), truncated_dtype("jax.numpy.float32"), truncated_dtype("f8")
        (None, None, None)
    """
    if qualname_or_const is None:
        return None
    name = qualname_or_const
    for prefix in _DTYPE_MODULES:
        if name.startswith(prefix):
            name = name[len(prefix) :]
            break
    else:
        if "." in name:
            return None
    if dtypes.long_name(name) != name:
        return None  # short spellings ("f8") read differently in NumPy and JAX; only long names count
    computed = dtypes.x32(name)
    return (name, computed) if computed != name else None


def _register_all() -> None:
    for name in ("zeros", "ones", "empty", "zeros_like", "ones_like", "empty_like", "array", "asarray", "identity"):
        register_dtype_position(f"jax.numpy.{name}", 1)
    for name in ("full", "full_like"):
        register_dtype_position(f"jax.numpy.{name}", 2)
    for name in ("arange", "eye"):
        register_dtype_position(f"jax.numpy.{name}", 3)
    register_dtype_position("jax.lax.convert_element_type", 1)
    for name in ("normal", "uniform"):
        register_dtype_position(f"jax.random.{name}", 2)
    register_dtype_position("jax.random.truncated_normal", 4)


_register_all()
