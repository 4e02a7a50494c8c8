"""JX106: ``print`` of a traced value inside a traced function."""

from __future__ import annotations

import ast
import json
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Fix, Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.models.sharding.shard_map import shard_map_model
from xlalens.analyzers.models.tracing.traced_functions import applied_eagerly, traced_root
from xlalens.analyzers.rules.jax._tracing import (
    function_name,
    holds_traced_leaf,
    traced_here,
    traced_sentence,
)

_PLAIN = (ast.Name, ast.Attribute, ast.Subscript, ast.Constant)


def _format_literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _fstring_fields(node: ast.JoinedStr, source: str) -> tuple[str, list[str]] | None:
    """Turn an f-string into a ``str.format`` template and the source of its expressions.

    Literal text comes from ``ast`` (escapes already decoded); each expression's exact source
    comes from libcst, whose f-string nodes keep it verbatim. Returns None for what this
    conversion does not keep exactly: ``=`` specifiers and nested fields in format specs, and
    everything when libcst is not installed (a bundle without native wheels): the finding stays,
    only its fix goes.
    """
    try:
        import libcst
    except ImportError:
        return None

    try:
        parsed = libcst.parse_expression(source)
    except libcst.ParserSyntaxError:
        return None
    if not isinstance(parsed, libcst.FormattedString):
        return None
    expressions = [p for p in parsed.parts if isinstance(p, libcst.FormattedStringExpression)]
    fields = [v for v in node.values if isinstance(v, ast.FormattedValue)]
    if len(expressions) != len(fields) or any(p.equal is not None for p in expressions):
        return None
    module = libcst.Module(body=[])
    template = ""
    arguments: list[str] = []
    expression_sources = iter(expressions)
    for value in node.values:
        if isinstance(value, ast.Constant):
            template += _format_literal(str(value.value))
            continue
        assert isinstance(value, ast.FormattedValue)
        field = "{"
        if value.conversion != -1:
            field += "!" + chr(value.conversion)
        if value.format_spec is not None:
            spec = value.format_spec
            if not all(isinstance(v, ast.Constant) for v in spec.values):  # type: ignore[attr-defined]
                return None
            field += ":" + "".join(str(v.value) for v in spec.values)  # type: ignore[attr-defined]
        template += field + "}"
        arguments.append(module.code_for_node(next(expression_sources).expression))
    return template, arguments


@register_rule
class PrintOfTracedValue(Rule):
    """## What it does
    Finds `print(...)` calls that print a traced value inside a traced function.

    ## Why is this bad?
    Python's `print` runs while JAX traces the function, which happens once per new input
    shape/dtype, not once per call. It prints the tracer (`JitTracer(float32[4])`), never the
    numbers, and later calls served from the compile cache print nothing at all.
    `jax.debug.print` is staged into the compiled program and prints the runtime values on
    every call.

    ## Example
    ```python
    import jax

    @jax.jit
    def step(x):
        print("x =", x)
        return x * 2
    ```

    Use instead:
    ```python
    import jax

    @jax.jit
    def step(x):
        jax.debug.print("x = {}", x)
        return x * 2
    ```

    ## Fix safety
    The fix rewrites the call to `jax.debug.print` with a format string (f-strings are
    converted to `{}` fields, literal braces escaped). It is safe when every argument is a plain
    name, attribute, subscript or constant; other arguments make it unsafe because they are now
    evaluated inside the compiled program. Calls with `sep=`, `end=`, `file=` or `*args` get no
    fix.

    ## References
    - JAX docs: "Debugging: `jax.debug.print`"
    """

    code = "JX106"
    message = "`print` of a traced value prints once, at trace time"
    explainer = "tracing#printing"
    severity = Severity.WARNING
    fix_title = "Use `jax.debug.print`"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names = frozenset({"builtins.print"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if ctx.qualname(node.func) != "builtins.print":
            return
        traced = [a for a in node.args if self.prints_traced(a, ctx)]
        if not traced:
            return
        function = ctx.scope.enclosing_function()
        root = traced_root(ctx.index, ctx.traced, function.node) if function is not None else None  # type: ignore[arg-type]
        if root is not None and shard_map_model(ctx.index, ctx.interpreter).runs_eagerly(root):
            return  # an eager shard_map runs its body on every call and prints each device's block
        if root is not None and applied_eagerly(ctx.index, ctx.traced, root):
            headline = "shows the batch tracer, not the values"
            explanation = "It runs on every call, but shows the batch tracer, not the values"
        else:
            headline = "runs at trace time and shows a tracer, not values"
            explanation = "It runs at trace time: it shows a tracer, not values, and prints nothing on cached calls"
        ctx.report(
            node,
            f"`print` in `{function_name(ctx)}` {headline}",
            detail=f"{traced_sentence(ctx)} {explanation}; use `jax.debug.print`.",
            fix=self.fix(node, ctx),
            related=traced_here(ctx, traced[0]),
        )

    @staticmethod
    def prints_traced(argument: ast.expr, ctx: CheckContext) -> bool:
        if isinstance(argument, ast.JoinedStr):
            return any(
                isinstance(v, ast.FormattedValue) and holds_traced_leaf(ctx.value(v.value)) for v in argument.values
            )
        if isinstance(argument, ast.BinOp) and isinstance(argument.op, ast.Mod):
            right = argument.right
            parts = right.elts if isinstance(right, ast.Tuple) else [right]
            return isinstance(argument.left, ast.Constant) and any(holds_traced_leaf(ctx.value(p)) for p in parts)
        if isinstance(argument, ast.Call):
            func = argument.func
            formats = isinstance(func, ast.Attribute) and func.attr == "format" and isinstance(func.value, ast.Constant)
            converts = ctx.qualname(func) in ("builtins.str", "builtins.repr")
            if formats or converts:
                return any(
                    holds_traced_leaf(ctx.value(a)) for a in [*argument.args, *(k.value for k in argument.keywords)]
                )
        return holds_traced_leaf(ctx.value(argument))

    def fix(self, node: ast.Call, ctx: CheckContext) -> Fix | None:
        spelling = ctx.module_spelling("jax", "jax")
        if spelling is None or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        alias, imports = spelling
        fields: list[str] = []
        arguments: list[str] = []
        safe = True
        for argument in node.args:
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                fields.append(_format_literal(argument.value))
            elif isinstance(argument, ast.JoinedStr):
                converted = _fstring_fields(argument, ctx.segment(argument))
                if converted is None:
                    return None
                fields.append(converted[0])
                arguments.extend(converted[1])
                safe = safe and all(
                    isinstance(v.value, _PLAIN) for v in argument.values if isinstance(v, ast.FormattedValue)
                )
            else:
                fields.append("{}")
                arguments.append(ctx.segment(argument))
                safe = safe and isinstance(argument, _PLAIN)
        fmt = " ".join(fields)
        call = f"{alias}.debug.print({json.dumps(fmt, ensure_ascii=False)}{''.join(', ' + a for a in arguments)})"
        return ctx.fix(
            "Replace with `jax.debug.print`",
            Applicability.SAFE if safe else Applicability.UNSAFE,
            [*imports, ctx.edit(node, call)],
        )
