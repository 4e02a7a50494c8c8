"""The signatures of ``jax.lax``'s control-flow primitives: where each argument sits.

One table answers "which argument is the body?", "which is the initial carry?" and "where is
``xs``?" for every analysis that reads these calls (traced-function discovery, the carry types,
the control-flow rules), by position or by keyword, as JAX 0.10 names its parameters.

Examples:
    >>> import ast
    >>> call = ast.parse("lax.fori_loop(0, n, body, init_val=x)").body[0].value
    >>> fori = signature("jax.lax.fori_loop")
    >>> ast.unparse(fori.argument(call, fori.body)), ast.unparse(fori.argument(call, "init_val"))
    ('body', 'x')
    >>> signature("jax.lax.scan").position("xs")
    2
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ControlFlowSignature:
    """Where the arguments of one control-flow primitive sit.

    Attributes:
        qualname: ``jax.lax.fori_loop``.
        params: Its positional parameters in order, named as JAX names them.
        functions: The parameters that take the functions it traces (``branches`` holds a list of them).
        carry: The parameter holding a loop's initial carry, ``None`` for ``cond`` and ``switch``.
        takes_operands: Whether ``*operands`` follow the parameters (``cond``, ``switch``).
    """

    qualname: str
    params: tuple[str, ...]
    functions: tuple[str, ...]
    carry: str | None = None
    takes_operands: bool = False

    @property
    def body(self) -> str:
        """The parameter of the function that runs every iteration (or the last branch function)."""
        return self.functions[-1]

    def position(self, param: str) -> int:
        """The positional index of ``param``."""
        return self.params.index(param)

    def argument(self, call: ast.Call, param: str) -> ast.expr | None:
        """The expression ``call`` passes for ``param``, positionally or by keyword; ``None`` if absent."""
        position = self.params.index(param)
        if len(call.args) > position and not any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
            return call.args[position]
        return next((k.value for k in call.keywords if k.arg == param), None)

    def operands(self, call: ast.Call) -> list[ast.expr]:
        """The positional ``*operands`` of ``cond``/``switch`` (empty for the loops)."""
        return list(call.args[len(self.params) :]) if self.takes_operands else []


_SIGNATURES: dict[str, ControlFlowSignature] = {
    signature.qualname: signature
    for signature in (
        ControlFlowSignature(
            "jax.lax.fori_loop", ("lower", "upper", "body_fun", "init_val"), ("body_fun",), carry="init_val"
        ),
        ControlFlowSignature(
            "jax.lax.while_loop", ("cond_fun", "body_fun", "init_val"), ("cond_fun", "body_fun"), carry="init_val"
        ),
        ControlFlowSignature("jax.lax.scan", ("f", "init", "xs", "length"), ("f",), "init"),
        ControlFlowSignature("jax.lax.cond", ("pred", "true_fun", "false_fun"), ("true_fun", "false_fun"), None, True),
        ControlFlowSignature("jax.lax.switch", ("index", "branches"), ("branches",), None, True),
    )
}

LOOPS: frozenset[str] = frozenset(name for name, signature in _SIGNATURES.items() if signature.carry is not None)
"""The primitives that carry a value from one iteration to the next."""


def signature(qualname: str | None) -> ControlFlowSignature | None:
    """The signature of control-flow primitive ``qualname``, or ``None`` for any other callee."""
    return _SIGNATURES.get(qualname) if qualname is not None else None
