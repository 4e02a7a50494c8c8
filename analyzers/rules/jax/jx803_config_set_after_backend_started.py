"""JX803: a JAX or XLA setting changed after the moment JAX reads it (import, or backend start)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import MESSAGE_LIMIT, Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge.backend_config import (
    LateSetting,
    ReadAt,
    config_option,
    environment_variable,
    late_call,
    starts_backend,
)
from xlalens.analyzers.knowledge.transforms import transform_spec
from xlalens.analyzers.semantics.calls import CallSite, call_graph
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import FunctionNode, ModuleIndex, Scope
from xlalens.analyzers.semantics.values import Const, Instance

_ENVIRON = "os.environ"
_ENV_METHODS = frozenset({"update", "setdefault"})


class _ProgramOrder:
    """Runs the module's statements in order (entering the module's functions where they are called, once
    each) and records, for every statement and call, the ``import jax`` and the backend-starting call that
    ran before it, if any."""

    def __init__(self, index: ModuleIndex, interpreter: Interpreter) -> None:
        self.index = index
        self.interpreter = interpreter
        self.graph = graph = call_graph(index)
        self.sites: dict[int, CallSite] = {}
        for owner in (index.tree, *(scope.node for scope in index.functions)):
            for site in graph.calls_in(owner):  # type: ignore[arg-type]
                self.sites[id(site.call)] = site
        self.imported: ast.AST | None = None
        self.started: ast.AST | None = None
        self.before: dict[int, tuple[ast.AST | None, ast.AST | None]] = {}
        self.entered: set[int] = set()
        self.run_body(index.tree.body, index.module_scope)

    def run_body(self, body: list[ast.stmt], scope: Scope) -> None:
        for statement in body:
            self.run_statement(statement, scope)

    def run_statement(self, statement: ast.stmt, scope: Scope) -> None:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for decorator in statement.decorator_list:
                self.run_expression(decorator, scope)
            return
        if isinstance(statement, ast.Import | ast.ImportFrom):
            modules = [a.name for a in statement.names] if isinstance(statement, ast.Import) else [statement.module]
            if any(m is not None and (m == "jax" or m.startswith("jax.")) for m in modules):
                self.imported = self.imported or statement
            return
        self.before.setdefault(id(statement), (self.imported, self.started))
        for _, value in ast.iter_fields(statement):
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, ast.stmt):
                    self.run_statement(item, scope)
                elif isinstance(item, ast.excepthandler):
                    self.run_body(item.body, scope)
                elif isinstance(item, ast.withitem):
                    self.run_expression(item.context_expr, scope)
                elif isinstance(item, ast.expr):
                    self.run_expression(item, scope)

    def run_expression(self, expr: ast.expr, scope: Scope) -> None:
        for call in _calls_in_evaluation_order(expr):
            self.before.setdefault(id(call), (self.imported, self.started))
            site = self.sites.get(id(call))
            if starts_backend(self.index.qualname(call.func, scope)) or (site is not None and _jitted(site, self)):
                self.started = self.started or call
            callee = site.callee if site is not None else self.method_of_instance(call.func, scope)
            if callee is None or id(callee) in self.entered:
                continue
            self.entered.add(id(callee))
            callee_scope = self.index.scope_of(callee)
            if callee_scope is None:
                continue
            if isinstance(callee, ast.Lambda):
                self.run_expression(callee.body, callee_scope)
            else:
                self.run_body(callee.body, callee_scope)

    def method_of_instance(self, func: ast.expr, scope: Scope) -> FunctionNode | None:
        """``obj.method`` where ``obj`` is an instance of one of the module's classes: that method."""
        if not isinstance(func, ast.Attribute):
            return None
        receiver = self.interpreter.value_of(func.value, scope)
        if not isinstance(receiver, Instance):
            return None
        return self.graph.find_method(receiver.node, func.attr, set())


def _jitted(site: CallSite, order: _ProgramOrder) -> bool:
    """Whether the call runs a jitted function (compiling and running it starts the backend)."""
    spec = transform_spec(site.wrapper)
    if spec is not None and spec.is_jit:
        return True
    callee: FunctionNode = site.callee
    if isinstance(callee, ast.Lambda):
        return False
    owner = order.index.scope_of(callee)
    outer = owner.parent if owner is not None and owner.parent is not None else order.index.module_scope
    for decorator in callee.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = order.index.qualname(target, outer)
        if name == "functools.partial" and isinstance(decorator, ast.Call) and decorator.args:
            name = order.index.qualname(decorator.args[0], outer)
        decorator_spec = transform_spec(name)
        if decorator_spec is not None and decorator_spec.is_jit:
            return True
    return False


def _calls_in_evaluation_order(expr: ast.expr) -> Iterator[ast.Call]:
    """The calls ``expr`` makes when evaluated, arguments before the call that receives them (lambda
    bodies run later and are left out)."""
    if isinstance(expr, ast.Lambda):
        return
    for child in ast.iter_child_nodes(expr):
        if isinstance(child, ast.expr):
            yield from _calls_in_evaluation_order(child)
        elif isinstance(child, ast.keyword | ast.comprehension):
            for grandchild in ast.iter_child_nodes(child):
                if isinstance(grandchild, ast.expr):
                    yield from _calls_in_evaluation_order(grandchild)
    if isinstance(expr, ast.Call):
        yield expr


@register_rule
class ConfigSetAfterBackendStarted(Rule):
    """## What it does
    Finds JAX and XLA settings changed after the point where JAX reads them, in the order the module
    runs (its statements, and the module's functions where it calls them): `XLA_FLAGS` written to
    `os.environ` after the first device query or array (`jax.devices()`, `jnp.ones`, `jax.random.key`,
    a jitted call), `JAX_PLATFORMS`, `JAX_ENABLE_X64`, `JAX_DEBUG_NANS` or `JAX_DISABLE_JIT` written
    after `import jax`, and `jax.config.update("jax_platforms" | "jax_num_cpu_devices", ...)` or
    `jax.distributed.initialize()` after the first device query or array.

    ## Why is this bad?
    XLA reads `XLA_FLAGS` once, when the backend starts, and JAX reads its `JAX_*` environment variables
    once, when it is imported. A later change is silently ignored: a script that asks for
    `--xla_force_host_platform_device_count=4` after printing `jax.devices()` keeps the devices it had,
    and `JAX_PLATFORMS="cpu"` written after `import jax` does not keep JAX off the GPU. The
    `jax_num_cpu_devices` option and `jax.distributed.initialize()` raise `RuntimeError` instead.
    `jax.config.update("jax_enable_x64", True)` works at any time and is not reported.

    ## Example
    ```python
    import os

    import jax

    print(jax.devices())
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
    ```

    Use instead:
    ```python
    import os

    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

    import jax

    print(jax.devices())
    ```

    ## References
    - JAX docs: "Configuration options" and `jax.distributed.initialize`
    - JAX issues 6887 and 12258
    """

    code = "JX803"
    message = "Setting changed after JAX read it: ignored or an error"
    explainer = "silent-failures#configuration-after-the-backend-starts"
    severity = Severity.WARNING
    raises = ("RuntimeError",)
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Assign, ast.Call)
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if not ctx.index.imports("jax"):
            return
        changes = list(self.changes(node, ctx))
        if not changes:
            return
        interpreter = ctx.interpreter
        order = ctx.index.derived("jax-program-order", lambda index: _ProgramOrder(index, interpreter))
        imported, started = order.before.get(id(node), (None, None))
        for what, setting in changes:
            event = imported if setting.read_at is ReadAt.IMPORT else started
            if event is None:
                continue
            when = "imported" if setting.read_at is ReadAt.IMPORT else "started the backend"
            head = f"{what} comes after `{_short(ctx.segment(event))}` (line {event.lineno}) {when}"
            moment = "JAX was imported" if setting.read_at is ReadAt.IMPORT else "the backend started"
            headline = f"{what} comes after {moment} (line {event.lineno})"
            outcome = f"raises {setting.raises}" if setting.raises else "ignored"
            if len(f"{headline}: {outcome}") <= MESSAGE_LIMIT:
                headline = f"{headline}: {outcome}"
            if setting.raises:
                detail = f"{head}: it raises {setting.raises}; move it before the first JAX call."
            else:
                moment = "at import" if setting.read_at is ReadAt.IMPORT else "when the backend starts"
                detail = (
                    f"{head}: JAX reads it once, {moment}, so the change to {setting.effect} is silently "
                    "ignored; move it before "
                    f"{'`import jax`' if setting.read_at is ReadAt.IMPORT else 'the first device query or array'}."
                )
            ctx.report(node, headline, detail=detail, severity=Severity.ERROR if setting.raises else None)
            return

    def changes(self, node: ast.AST, ctx: CheckContext) -> Iterator[tuple[str, LateSetting]]:
        """``(description, setting)`` for each setting ``node`` changes that is read at a fixed moment."""
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and ctx.qualname(target.value) == _ENVIRON:
                    yield from self.environment(target.slice, ctx)
            return
        assert isinstance(node, ast.Call)
        func = node.func
        name = ctx.qualname(func)
        if name == "jax.config.update" and node.args:
            option = self.text(node.args[0], ctx)
            setting = config_option(option)
            if setting is not None:
                yield f'`jax.config.update("{option}", ...)`', setting
        elif (setting := late_call(name)) is not None:
            yield f"`{name}()`", setting
        elif name == "os.putenv" and node.args:
            yield from self.environment(node.args[0], ctx)
        elif isinstance(func, ast.Attribute) and func.attr in _ENV_METHODS and ctx.qualname(func.value) == _ENVIRON:
            if func.attr == "setdefault" and node.args:
                yield from self.environment(node.args[0], ctx)
            elif func.attr == "update":
                for argument in node.args:
                    if isinstance(argument, ast.Dict):
                        for key in argument.keys:
                            if key is not None:
                                yield from self.environment(key, ctx)
                for keyword in node.keywords:
                    if keyword.arg is not None:
                        yield from self.environment(ast.Constant(keyword.arg), ctx)

    def environment(self, key: ast.expr, ctx: CheckContext) -> Iterator[tuple[str, LateSetting]]:
        name = self.text(key, ctx)
        setting = environment_variable(name)
        if setting is not None:
            yield f"`{name}`", setting

    @staticmethod
    def text(expr: ast.expr, ctx: CheckContext) -> str | None:
        if isinstance(expr, ast.Constant):
            return expr.value if isinstance(expr.value, str) else None
        value = ctx.value(expr)
        return value.value if isinstance(value, Const) and isinstance(value.value, str) else None


def _short(text: str) -> str:
    """The first line of a statement, cut at 40 characters."""
    line = text.splitlines()[0] if text else text
    return line if len(line) <= 40 else line[:39] + "…"
