"""The exceptions rules predict, their bases, and the test helpers that expect them.

A finding that predicts an exception is no news when the code around it expects that exception:
``with self.assertRaises(TypeError):``, ``with pytest.raises(ConcretizationTypeError):`` or a
``try`` whose ``except`` catches it (or a base of it). The classes JAX raises are listed with their
bases as JAX 0.10 defines them (a test compares the table with the installed package); built-in
exceptions take their bases from Python itself.

Examples:
    >>> caught_by("TracerBoolConversionError", {"TypeError"})
    True
    >>> caught_by("NonConcreteBooleanIndexError", {"TypeError"}), caught_by("ValueError", {"LookupError"})
    (False, False)
    >>> caught_by("IndivisibleError", {"Exception"})
    True
"""

from __future__ import annotations

import builtins

_JAX_BASES: dict[str, tuple[str, ...]] = {
    "ConcretizationTypeError": ("JAXTypeError", "TypeError"),
    "TracerBoolConversionError": ("ConcretizationTypeError", "JAXTypeError", "TypeError"),
    "TracerIntegerConversionError": ("JAXTypeError", "TypeError"),
    "TracerArrayConversionError": ("JAXTypeError", "TypeError"),
    "UnexpectedTracerError": ("JAXTypeError", "TypeError"),
    "KeyReuseError": ("JAXTypeError", "TypeError"),
    "NonConcreteBooleanIndexError": ("JAXIndexError", "IndexError"),
    "IndivisibleError": ("ValueError",),
    "DuplicateSpecError": ("Exception",),
}
"""JAX's exception classes -> their bases (nearest first), up to a built-in exception."""

EXPECTING_CONTEXTS = frozenset(
    {
        "assertRaises",
        "assertRaisesRegex",
        "assertRaisesRegexp",
        "assertRaisesWithLiteralMatch",
        "assertRaisesWithPredicateMatch",
        "assertWarns",
        "assertWarnsRegex",
        "raises",
        "warns",
        "assert_raises",
        "assert_raises_regex",
    }
)
"""Callees whose ``with`` block expects the exceptions in their first argument: unittest's and
absltest's ``assertRaises*``/``assertWarns*``, ``pytest.raises``/``pytest.warns`` and NumPy's
``assert_raises``."""


def bases(name: str) -> tuple[str, ...]:
    """The class itself and every base it has, nearest first (just the name for an unknown class).

    Examples:
        >>> bases("TracerBoolConversionError")[:3]
        ('TracerBoolConversionError', 'ConcretizationTypeError', 'JAXTypeError')
        >>> bases("IndexError")
        ('IndexError', 'LookupError', 'Exception', 'BaseException')
    """
    chain = [name]
    jax_bases = _JAX_BASES.get(name, ())
    chain.extend(jax_bases)
    builtin = getattr(builtins, jax_bases[-1] if jax_bases else name, None)
    if isinstance(builtin, type) and issubclass(builtin, BaseException):
        chain.extend(k.__name__ for k in builtin.__mro__[1:] if k is not object)
    return tuple(dict.fromkeys(chain))


def caught_by(raised: str, handlers: frozenset[str] | set[str]) -> bool:
    """Whether an ``except`` (or an expecting context) naming ``handlers`` catches ``raised``."""
    return any(name in handlers for name in bases(raised))
