"""What the upgrade rules share: guards, the target release, and finding and fixing old names.

The upgrade rules (``JX7xx`` for JAX and Pallas, ``TX7xx`` for torch_xla, and ``JX508`` for
``shard_map``) report spellings a library renamed or removed. Three questions are the same for all
of them, and are answered here once:

* **Is this compatibility code?** An old spelling in an ``except`` handler, under an ``if`` that
  tests a version or ``hasattr``, or (once removed) in a ``try`` whose handler catches the error
  its removal raises, only runs where it works: :func:`compatibility_code`.
* **What does the target release make of it?** Removed by then: an error; only deprecated: a
  warning; not yet deprecated: nothing (:func:`judge`). The target is ``jax-version`` /
  ``torch-xla-version``, else the project's pin (filled in by the configuration), else the newest
  release the table knows (:func:`target_release`).
* **Where is the old name used, and how is it rewritten?** :class:`NameMigrationRule` finds every
  spelling of the names of one table group (``knowledge/migrations.py``): ``from jax import
  tree_map``, ``import jax as j; j.tree_map``, a module alias, a moved module. Its fixes rewrite
  the import or the reference in the file's own spelling, adding the import the new name needs and
  removing an import the rewrite leaves unused.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import ClassVar, NamedTuple

from xlalens.analyzers.core.diagnostics import (
    MESSAGE_LIMIT,
    Applicability,
    Edit,
    Fix,
    Position,
    Range,
    Severity,
    shorten,
)
from xlalens.analyzers.core.edits import import_edit
from xlalens.analyzers.core.versions import Version, format_version, parse_version
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge.jax_modules import loaded_with_jax
from xlalens.analyzers.knowledge.migrations import (
    NEWEST_KNOWN,
    Library,
    NameMigration,
    Replacement,
    UsageChange,
    by_old_name,
    migrations_for,
)
from xlalens.analyzers.semantics.loops import parents
from xlalens.analyzers.semantics.names import Binding, BindingKind, Scope

_SCOPE_NODES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_BUILTINS = frozenset(dir(builtins))

_HANDLED_BY: Mapping[str, frozenset[str]] = {
    "ImportError": frozenset({"ImportError", "ModuleNotFoundError"}),
    "AttributeError": frozenset({"AttributeError"}),
    "TypeError": frozenset({"TypeError"}),
    "InvalidBackend": frozenset({"InvalidBackend", "RuntimeError"}),
}
_BROAD_HANDLERS = frozenset({"Exception", "BaseException"})

PREFERRED_ALIASES: Mapping[str, str] = {
    "jax": "jax",
    "jax.numpy": "jnp",
    "jax.experimental.pallas": "pl",
    "jax.experimental.pallas.tpu": "pltpu",
    "jax.experimental.pallas.triton": "plt",
    "torch_xla": "torch_xla",
    "torch_xla.runtime": "xr",
    "torch_xla.core.xla_model": "xm",
    "torch_xla.distributed.spmd": "xs",
}
"""The names the JAX, Pallas and torch_xla documentation import modules as, for an import a fix adds."""


# -- guards ----------------------------------------------------------------------------------


def tests_version(test: ast.expr) -> bool:
    """Whether a condition reads a version (``jax.__version__``, ``version.parse``) or uses ``hasattr``.

    Examples:
        >>> tests_version(ast.parse("jax.__version_info__ >= (0, 4, 26)", mode="eval").body)
        True
        >>> tests_version(ast.parse("hasattr(jax, 'tree')", mode="eval").body)
        True
        >>> tests_version(ast.parse("x > 0", mode="eval").body)
        False
    """
    for node in ast.walk(test):
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
        if "version" in name.lower() or name == "hasattr":
            return True
    return False


def _handler_names(handler: ast.ExceptHandler) -> set[str] | None:
    """The exception class names a handler catches (last part of each), ``None`` for a bare ``except:``."""
    if handler.type is None:
        return None
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    names = set()
    for each in types:
        if isinstance(each, ast.Name):
            names.add(each.id)
        elif isinstance(each, ast.Attribute):
            names.add(each.attr)
    return names


def _catches(statement: ast.Try | ast.TryStar, failure: str) -> bool:
    handled = _HANDLED_BY.get(failure, frozenset({failure})) | _BROAD_HANDLERS
    for handler in statement.handlers:
        names = _handler_names(handler)
        if names is None or names & handled:
            return True
    return False


def compatibility_code(node: ast.AST, ctx: CheckContext, failure: str | None = None) -> bool:
    """Whether ``node`` only runs on the library releases where it works.

    It does in an ``except`` handler (the fallback of ``try: from jax import shard_map``), under an
    ``if`` (or conditional expression) that tests a version or ``hasattr``, in the body of a function
    defined there, and, when ``failure`` names the error the old spelling raises at the target
    release, in the body of a ``try`` whose handler catches that error (``try: from jax import
    tree_map`` / ``except ImportError: ...``). A deprecated spelling still works, so without
    ``failure`` a ``try`` body is not compatibility code.
    """
    current: ast.AST = node
    scope: Scope | None = ctx.scope
    while scope is not None:
        table = parents(ctx.index, scope)
        parent = table.get(id(current))
        while parent is not None and not isinstance(parent, _SCOPE_NODES):
            if isinstance(parent, ast.ExceptHandler) and current is not parent.type:
                return True
            if isinstance(parent, ast.If | ast.IfExp) and current is not parent.test and tests_version(parent.test):
                return True
            if (
                failure is not None
                and isinstance(parent, ast.Try | ast.TryStar)
                and any(current is statement for statement in parent.body)
                and _catches(parent, failure)
            ):
                return True
            current, parent = parent, table.get(id(parent))
        if parent is None or isinstance(parent, ast.Module):
            return False
        # Climb out of the function to the statement that defines it.
        current = parent
        owner = ctx.index.scope_of(parent)
        scope = owner.parent if owner is not None else None
    return False


# -- target release ----------------------------------------------------------------------------


def target_release(ctx: CheckContext, library: Library) -> Version:
    """The release the checked code is judged against: the setting (or pin), else the newest known."""
    text = ctx.settings.jax_version if library is Library.JAX else ctx.settings.torch_xla_version
    parsed = parse_version(text) if text else None
    return parsed if parsed is not None else NEWEST_KNOWN[library]


def judge(target: Version, deprecated: Version, removed: Version | None) -> Severity | None:
    """Error once removed, warning once deprecated, nothing before.

    Examples:
        >>> judge((0, 10, 2), (0, 4, 26), (0, 6, 0)), judge((0, 5, 0), (0, 4, 26), (0, 6, 0))
        (<Severity.ERROR: 'error'>, <Severity.WARNING: 'warning'>)
        >>> judge((0, 4, 20), (0, 4, 26), (0, 6, 0)) is None
        True
    """
    if removed is not None and target >= removed:
        return Severity.ERROR
    if target >= deprecated:
        return Severity.WARNING
    return None


def status(library: Library, target: Version, deprecated: Version, removed: Version | None, failure: str) -> str:
    """What the target release makes of an old spelling, for a message.

    Examples:
        >>> status(Library.JAX, (0, 10, 2), (0, 4, 26), (0, 6, 0), "AttributeError")
        'was removed in JAX 0.6.0 (deprecated since 0.4.26): AttributeError on JAX 0.10.2'
        >>> status(Library.TORCH_XLA, (2, 9), (2, 8), None, "AttributeError")
        'is deprecated since torch_xla 2.8 (a warning on torch_xla 2.9)'
    """
    name = library.title
    if removed is not None and target >= removed:
        since = f"deprecated since {format_version(deprecated)}" if deprecated < removed else "without a deprecation"
        return (
            f"was removed in {name} {format_version(removed)} ({since}): {failure} on {name} {format_version(target)}"
        )
    later = f"; removed in {format_version(removed)}" if removed is not None else ""
    return (
        f"is deprecated since {name} {format_version(deprecated)} (a warning on {name} {format_version(target)}{later})"
    )


def judge_change(ctx: CheckContext, change: UsageChange) -> tuple[Severity, str] | None:
    """The severity and status text of a usage change at the target release, or ``None`` before its deprecation."""
    target = target_release(ctx, change.library)
    severity = judge(target, change.deprecated, change.removed)
    if severity is None:
        return None
    return severity, status(change.library, target, change.deprecated, change.removed, change.failure)


class Verdict(NamedTuple):
    """What the target release makes of an old spelling, worded for a finding.

    Attributes:
        severity: Error once removed, warning once deprecated.
        state: The headline's clause: ``removed in JAX 0.6.0`` or ``deprecated since torch_xla 2.8``.
        detail: The sentence with the rest: since when it was deprecated and what the target release does.
    """

    severity: Severity
    state: str
    detail: str


def verdict(library: Library, target: Version, deprecated: Version, removed: Version | None, failure: str) -> Verdict:
    """The headline clause and detail sentence of an old spelling at ``target``, or of its deprecation.

    Examples:
        >>> verdict(Library.JAX, (0, 10, 2), (0, 4, 26), (0, 6, 0), "AttributeError")[1:]
        ('removed in JAX 0.6.0', 'Deprecated since JAX 0.4.26, removed in 0.6.0: AttributeError on JAX 0.10.2.')
        >>> verdict(Library.TORCH_XLA, (2, 9), (2, 8), None, "AttributeError")[1:]
        ('deprecated since torch_xla 2.8', 'Deprecated since torch_xla 2.8: a warning on torch_xla 2.9.')
    """
    name = library.title
    if removed is not None and target >= removed:
        if deprecated < removed:
            since = f"Deprecated since {name} {format_version(deprecated)}, removed in {format_version(removed)}"
        else:
            since = f"Removed in {name} {format_version(removed)} without a deprecation"
        return Verdict(
            Severity.ERROR,
            f"removed in {name} {format_version(removed)}",
            f"{since}: {failure} on {name} {format_version(target)}.",
        )
    later = f"; removed in {format_version(removed)}" if removed is not None else ""
    return Verdict(
        Severity.WARNING,
        f"deprecated since {name} {format_version(deprecated)}",
        f"Deprecated since {name} {format_version(deprecated)}: a warning on {name} {format_version(target)}{later}.",
    )


def judge_usage(ctx: CheckContext, change: UsageChange) -> Verdict | None:
    """The verdict on a usage change at the target release, or ``None`` before its deprecation."""
    target = target_release(ctx, change.library)
    if judge(target, change.deprecated, change.removed) is None:
        return None
    return verdict(change.library, target, change.deprecated, change.removed, change.failure)


def upgrade_finding(subject: str, judged: Verdict, instead: str, why: str = "") -> tuple[str, str]:
    """The headline and detail of an upgrade finding about ``subject`` (already quoted).

    The headline names the replacement when it fits in :data:`MESSAGE_LIMIT` characters; otherwise
    the detail does. ``why`` is a sentence on what changed, for the detail.

    Examples:
        >>> judged = verdict(Library.JAX, (0, 10, 2), (0, 4, 26), (0, 6, 0), "AttributeError")
        >>> upgrade_finding("`jax.tree_map`", judged, "`jax.tree.map`")[0]
        '`jax.tree_map` removed in JAX 0.6.0; use `jax.tree.map`'
    """
    headline = f"{subject} {judged.state}"
    detail = [judged.detail]
    if why:
        detail.append(why)
    if len(f"{headline}; use {instead}") <= MESSAGE_LIMIT:
        headline = f"{headline}; use {instead}"
    else:
        detail.append(f"Use {instead} instead.")
    return headline, " ".join(detail)


def short_code(ctx: CheckContext, node: ast.AST, limit: int = 40) -> str:
    """The source of ``node`` on one line, cut to ``limit`` characters for a headline."""
    return shorten(ctx.segment(node), limit)


def removed_at(ctx: CheckContext, library: Library, removed: Version | None) -> bool:
    """Whether the target release no longer has the old spelling."""
    return removed is not None and target_release(ctx, library) >= removed


# -- small edit helpers ------------------------------------------------------------------------


@contextmanager
def at_scope(ctx: CheckContext, scope: Scope) -> Iterator[None]:
    """Point ``ctx`` at ``scope`` for a while (to spell or resolve a name where it is used)."""
    saved = ctx.scope
    ctx.scope = scope
    try:
        yield
    finally:
        ctx.scope = saved


def spell(ctx: CheckContext, qualname: str, at: ast.AST | None = None) -> tuple[str, tuple[Edit, ...]] | None:
    """``qualname`` written the file's way at ``ctx.scope``, and the import edit that needs, if any.

    ``None`` when the name a new import would bind is taken. When ``at`` is module-level code and
    the file imports the module only further down, the import is added (again) where imports go:
    the use runs before the file's own import does.
    """
    module, _, member = qualname.rpartition(".")
    alias = PREFERRED_ALIASES.get(module, module)
    spelled = ctx.module_spelling(module, alias)
    if spelled is None:
        return None
    name, edits = spelled
    if not edits and at is not None and _bound_only_below(ctx, name.split(".", 1)[0], at):
        statement = f"import {module}" if name == module else f"import {module} as {name}"
        edits = (import_edit(ctx.index.tree, ctx.source, statement),)
    return f"{name}.{member}", edits


def _bound_only_below(ctx: CheckContext, name: str, at: ast.AST) -> bool:
    """Whether module-level code at ``at`` reads ``name`` before any statement binds it."""
    if ctx.scope.enclosing_function() is not None:
        return False  # a function runs after the module's imports
    found = ctx.index.lookup(name, ctx.scope)
    if found is None:
        return False
    line = getattr(at, "lineno", 0)
    return all(getattr(binding.node, "lineno", 0) > line for binding in found[1])


def parent_of(ctx: CheckContext, node: ast.AST) -> ast.AST | None:
    """The node containing ``node`` in the code of ``ctx.scope``."""
    return parents(ctx.index, ctx.scope).get(id(node))


def _statement_indent(ctx: CheckContext, statement: ast.stmt) -> str | None:
    """The whitespace before a statement on its line, ``None`` when other code precedes it."""
    line = ctx.source.line(statement.lineno)
    prefix = line[: ctx.source.node_range(statement).start.column]
    return prefix if not prefix.strip() else None


def _alias_text(alias: ast.alias) -> str:
    return f"{alias.name} as {alias.asname}" if alias.asname else alias.name


def _plain_statement(ctx: CheckContext, statement: ast.stmt) -> bool:
    """Whether a statement can be written anew without losing a comment inside it."""
    return "#" not in ctx.segment(statement)


def rewrite_import(
    ctx: CheckContext, statement: ast.Import | ast.ImportFrom, replaced: Mapping[int, Sequence[str]]
) -> Edit | None:
    """Write an import statement anew: the aliases not in ``replaced`` stay, each replaced one becomes its lines.

    ``None`` when that cannot be done without losing a comment or when other code shares the line.
    A statement left with nothing becomes ``pass`` when it is alone in its block, or is deleted.
    """
    indent = _statement_indent(ctx, statement)
    if indent is None or not _plain_statement(ctx, statement):
        return None
    kept = [_alias_text(alias) for position, alias in enumerate(statement.names) if position not in replaced]
    lines: list[str] = []
    if kept:
        if isinstance(statement, ast.ImportFrom):
            lines.append(f"from {'.' * statement.level}{statement.module or ''} import {', '.join(kept)}")
        else:
            lines.append(f"import {', '.join(kept)}")
    for position in sorted(replaced):
        lines.extend(replaced[position])
    if lines:
        return Edit(ctx.source.node_range(statement), (ctx.source.newline + indent).join(lines))
    return delete_statement(ctx, statement)


def delete_statement(ctx: CheckContext, statement: ast.stmt) -> Edit | None:
    """Remove a statement (its whole lines), or replace it with ``pass`` when its block would be empty."""
    indent = _statement_indent(ctx, statement)
    if indent is None:
        return None
    span = ctx.source.node_range(statement)
    if ctx.source.line(span.end.line)[span.end.column :].split("#", 1)[0].strip():
        return None  # `import x; y = 1`: other code follows on the line
    container = parent_of(ctx, statement)
    body: list[ast.stmt] = []
    for field in ("body", "orelse", "finalbody"):
        block = getattr(container, field, None)
        if isinstance(block, list) and any(each is statement for each in block):
            body = block
    if len(body) == 1:
        return Edit(span, "pass")
    last = len(ctx.source.lines)
    if span.end.line < last:
        return Edit(Range(Position(span.start.line, 0), Position(span.end.line + 1, 0)), "")
    return Edit(Range(Position(span.start.line, 0), Position(span.end.line, len(ctx.source.line(span.end.line)))), "")


def _bound_anywhere(ctx: CheckContext, name: str) -> bool:
    """Whether ``name`` is bound in any scope of the module (or is a builtin)."""
    if name in _BUILTINS:
        return True
    return any(name in scope.bindings or name in scope.global_names for scope in ctx.index.scopes.values())


def uses_of(ctx: CheckContext, name: str, binding_owner: Scope) -> list[tuple[ast.Name, Scope]] | None:
    """Every read of ``name`` that refers to its binding in ``binding_owner``; ``None`` if another binding shares it."""
    cache: dict[tuple[str, int], list[tuple[ast.Name, Scope]] | None] = ctx.index.derived("migration-uses", _new_cache)
    key = (name, id(binding_owner))
    if key not in cache:
        cache[key] = _uses_of(ctx, name, binding_owner)
    return cache[key]


def _new_cache(_: object) -> dict[tuple[str, int], list[tuple[ast.Name, Scope]] | None]:
    return {}


def _uses_of(ctx: CheckContext, name: str, binding_owner: Scope) -> list[tuple[ast.Name, Scope]] | None:
    bindings = binding_owner.bindings.get(name)
    if not bindings:
        return []
    if len(bindings) != 1:
        return None  # rebound later: a read may see another value
    found = []
    for node, scope in ctx.index.nodes.get(ast.Name, ()):
        assert isinstance(node, ast.Name)
        if node.id != name:
            continue
        if not isinstance(node.ctx, ast.Load):
            if scope is not binding_owner and ctx.index.lookup(name, scope) == (binding_owner, bindings):
                return None
            continue
        if ctx.index.lookup(name, scope) == (binding_owner, bindings):
            found.append((node, scope))
    return found


def _single_import_binding(ctx: CheckContext, name: str, scope: Scope) -> tuple[Scope, Binding] | None:
    found = ctx.index.lookup(name, scope)
    if found is None:
        return None
    owner, bindings = found
    if len(bindings) != 1 or bindings[0].kind is not BindingKind.IMPORT:
        return None
    return owner, bindings[0]


def _alias_position(statement: ast.Import | ast.ImportFrom, bound: str) -> int | None:
    for position, alias in enumerate(statement.names):
        name = alias.asname or (alias.name if isinstance(statement, ast.ImportFrom) else alias.name.split(".")[0])
        if name == bound:
            return position
    return None


def call_site(ctx: CheckContext, expr: ast.expr) -> tuple[ast.Call, int] | None:
    """The call ``expr`` is the callee of (offset 0), or the ``functools.partial`` it is bound by (offset 1)."""
    parent = parent_of(ctx, expr)
    if isinstance(parent, ast.Call):
        if parent.func is expr:
            return parent, 0
        if parent.args and parent.args[0] is expr and ctx.qualname(parent.func) == "functools.partial":
            return parent, 1
    return None


def _decorates(ctx: CheckContext, expr: ast.expr) -> bool:
    parent = parent_of(ctx, expr)
    return isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and any(
        each is expr for each in parent.decorator_list
    )


def call_adjustments(ctx: CheckContext, expr: ast.expr, entry: NameMigration) -> tuple[list[Edit], bool] | None:
    """Edits that keep the calls through ``expr`` meaning the same under the new name, and whether they are safe.

    Positional arguments the new callable does not take are passed by keyword, renamed keywords are
    renamed, required keywords are added. ``None`` when the call cannot be kept (arguments passed
    with ``*``/``**``, a required keyword on a name that is not called).
    """
    constrained = (
        entry.new_positional is not None
        or bool(entry.add_keywords)
        or bool(entry.call_suffix)
        or entry.max_positional is not None
        or entry.keywords is not None
    )
    if not constrained:
        return [], True
    site = call_site(ctx, expr)
    if site is None:
        if entry.add_keywords or entry.call_suffix:
            return None
        # Passed along (or a bare decorator, which calls it with the function alone).
        return [], _decorates(ctx, expr)
    call, offset = site
    args = call.args[offset:]
    if any(isinstance(arg, ast.Starred) for arg in args) or any(keyword.arg is None for keyword in call.keywords):
        return None
    edits: list[Edit] = []
    safe = True
    if entry.new_positional is not None:
        for position, arg in enumerate(args[entry.new_positional :], start=entry.new_positional + offset):
            if position >= len(entry.old_parameters):
                return None
            start = ctx.source.node_range(arg).start
            edits.append(Edit(Range(start, start), f"{entry.old_parameters[position]}="))
    if entry.max_positional is not None and len(args) > entry.max_positional:
        safe = False
    if entry.keywords is not None:
        for keyword in call.keywords:
            renamed = entry.keywords.get(keyword.arg or "")
            if renamed is None:
                safe = False
            elif renamed != keyword.arg:
                start = ctx.source.node_range(keyword).start
                edits.append(Edit(Range(start, Position(start.line, start.column + len(keyword.arg or ""))), renamed))
    if entry.add_keywords:
        last: list[ast.AST] = [*call.args, *call.keywords]
        if not last or offset:
            return None
        end = max((ctx.source.node_range(each).end for each in last), key=lambda p: (p.line, p.column))
        edits.append(Edit(Range(end, end), f", {entry.add_keywords}"))
    if entry.call_suffix:
        if offset:
            return None
        end = ctx.source.node_range(call).end
        edits.append(Edit(Range(end, end), entry.call_suffix))
    return edits, safe


# -- rules over the name table -----------------------------------------------------------------


class NameMigrationRule(Rule):
    """Base of the upgrade rules over one group of :data:`~xlalens.analyzers.knowledge.migrations.NAME_MIGRATIONS`.

    A subclass sets ``code`` (the table's ``code`` column) and its docs; the names it looks for
    follow from the table. It reports each import of an old name or module (``from jax import
    tree_map``, ``import torch_xla.experimental.pjrt as pjrt``) and each attribute expression that
    resolves to one (``jax.tree_map``, ``j.tree_map`` after ``import jax as j``, ``pltpu.ANY``).
    Reads of a name an import bound are not reported again: the import is.
    """

    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Import, ast.ImportFrom, ast.Attribute)
    needs_traced = False
    fix_availability = FixAvailability.SOMETIMES

    def __init_subclass__(cls, **kwargs: object) -> None:
        code = cls.__dict__.get("code")
        if code is not None and "reference_names" not in cls.__dict__:
            cls.reference_names = frozenset(entry.old for entry in migrations_for(code))
        super().__init_subclass__(**kwargs)

    @classmethod
    def entries(cls) -> dict[str, NameMigration]:
        """This rule's table rows by old name."""
        cached: dict[str, NameMigration] | None = cls.__dict__.get("_entries")
        if cached is None:
            cached = {entry.old: entry for entry in migrations_for(cls.code)}
            cls._entries = cached  # type: ignore[attr-defined]
        return cached

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if isinstance(node, ast.Attribute):
            self.check_reference(node, ctx)
        elif isinstance(node, ast.ImportFrom):
            self.check_from_import(node, ctx)
        elif isinstance(node, ast.Import):
            self.check_import(node, ctx)

    # -- reporting ---------------------------------------------------------------------------

    def _verdict(self, ctx: CheckContext, entry: NameMigration, node: ast.AST) -> Verdict | None:
        target = target_release(ctx, entry.library)
        severity = judge(target, entry.deprecated, entry.removed)
        if severity is None:
            return None
        # An import of a removed name fails with ImportError, a read of it with AttributeError.
        failure = "ImportError" if isinstance(node, ast.Import | ast.ImportFrom) else "AttributeError"
        if compatibility_code(node, ctx, failure if severity is Severity.ERROR else None):
            return None
        return verdict(entry.library, target, entry.deprecated, entry.removed, failure)

    @staticmethod
    def instead(entry: NameMigration) -> str:
        """What to write instead, for the message."""
        if entry.instead:
            return entry.instead
        return f"`{entry.new}`" if entry.new else "the replacement its documentation names"

    def finding_text(self, written: str, entry: NameMigration, judged: Verdict) -> tuple[str, str]:
        """The finding's headline and detail."""
        return upgrade_finding(f"`{written}`", judged, self.instead(entry))

    def manual_fix(self, entry: NameMigration) -> Fix:
        """The fix shown when the change needs a person."""
        return Fix(f"Use {self.instead(entry)}", Applicability.DISPLAY_ONLY, ())

    def replacement_name(self, ctx: CheckContext, entry: NameMigration) -> str | None:
        """The new name to write at the target release (the compatible one before ``new_since``)."""
        if entry.new is None:
            return None
        if entry.new_since is not None and target_release(ctx, entry.library) < entry.new_since:
            return entry.compat
        return entry.new

    # -- attribute references ----------------------------------------------------------------

    def check_reference(self, node: ast.Attribute, ctx: CheckContext) -> None:
        if not isinstance(node.ctx, ast.Load):
            return  # `jax.tree_map = jax.tree.map`: a compatibility shim assigns it
        entry = self.entries().get(ctx.qualname(node) or "")
        if entry is None:
            return
        parent = parent_of(ctx, node)
        if isinstance(parent, ast.Attribute) and self.entries().get(ctx.qualname(parent) or ""):
            return  # `pltpu.TPUMemorySpace.ANY`: the longer name has its own row and replacement
        if entry.module and _module_imported(ctx, entry.old):
            return  # the import statement is reported
        judged = self._verdict(ctx, entry, node)
        if judged is None:
            return
        message, detail = self.finding_text(ctx.segment(node), entry, judged)
        fix = self.reference_fix(node, entry, ctx)
        # A rule that names a calculator (JX701's pytree) links it with its example: no numbers to fill.
        ctx.report(node, message, detail=detail, fix=fix, severity=judged.severity, calculator={})

    def reference_fix(self, node: ast.Attribute, entry: NameMigration, ctx: CheckContext) -> Fix | None:
        """The fix for one attribute reference; it rewrites every reference through the same import
        too, and removes that import, when the rewrite leaves it unused."""
        if entry.replacement is Replacement.MANUAL or entry.module:
            return self.manual_fix(entry)
        single = self.rewrite_reference(node, entry, ctx)
        if single is None:
            return self.manual_fix(entry)
        edits, safe, replaces_base = single
        if replaces_base:
            bundled = self._bundle_with_import(node, ctx)
            if bundled is not None:
                edits, safe = bundled
        applicability = Applicability.SAFE if safe and entry.replacement is Replacement.RENAME else Applicability.UNSAFE
        return ctx.fix(self.fix_title_for(entry, ctx), applicability, edits)

    def fix_title_for(self, entry: NameMigration, ctx: CheckContext) -> str:
        """The title of the fix for one reference."""
        if entry.expression:
            return f"Use {self.instead(entry)}"
        return f"Use `{self.replacement_name(ctx, entry)}`"

    def rewrite_reference(
        self, node: ast.Attribute, entry: NameMigration, ctx: CheckContext
    ) -> tuple[list[Edit], bool, bool] | None:
        """Edits that rewrite one reference, whether they are safe, and whether the new text no longer
        reads the name the old one started with (``pltpu`` in ``pltpu.ANY`` -> ``pl.ANY``)."""
        base = _base_name(node)
        if entry.expression is not None:
            text = entry.expression.format(module=ctx.segment(node.value))
            parent = parent_of(ctx, node)
            if text.startswith("-") and isinstance(parent, ast.Attribute | ast.Subscript | ast.BinOp | ast.UnaryOp):
                text = f"({text})"
            return [ctx.edit(node, text)], True, "{module}" not in entry.expression
        new = self.replacement_name(ctx, entry)
        if new is None:
            return None
        adjusted = call_adjustments(ctx, node, entry)
        if adjusted is None:
            return None
        call_edits, safe = adjusted
        old_module, _, _ = entry.old.rpartition(".")
        new_module, _, new_member = new.rpartition(".")
        if old_module == new_module:
            end = ctx.source.node_range(node).end
            start = Position(end.line, end.column - len(node.attr))
            return [Edit(Range(start, end), new_member), *call_edits], safe, False
        spelled = _through_base(ctx, base, new, new_module) or spell(ctx, new, node)
        if spelled is None:
            return None
        text, imports = spelled
        drops_base = base is not None and not text.startswith(base + ".")
        return [*imports, ctx.edit(node, text), *call_edits], safe, drops_base

    def _bundle_with_import(self, node: ast.Attribute, ctx: CheckContext) -> tuple[list[Edit], bool] | None:
        """All the rewrites through ``node``'s module alias plus the removal of its import, when every
        read of that alias is an old name (of any upgrade rule) that the rewrite replaces, so that
        the import would be left unused."""
        base = _base_name(node)
        if base is None:
            return None
        found = _single_import_binding(ctx, base, ctx.scope)
        if found is None:
            return None
        owner, binding = found
        statement = binding.node
        if owner is not ctx.index.module_scope or not isinstance(statement, ast.Import | ast.ImportFrom):
            return None
        uses = uses_of(ctx, base, owner)
        if not uses:
            return None
        table = by_old_name()
        edits: list[Edit] = []
        safe = True
        for use, scope in uses:
            with at_scope(ctx, scope):
                reference = _reference_above(use, ctx, table)
                if reference is None:
                    return None
                entry = table[ctx.qualname(reference) or ""]
                if entry.replacement is Replacement.MANUAL or entry.module:
                    return None
                if judge(target_release(ctx, entry.library), entry.deprecated, entry.removed) is None:
                    return None  # not reported at the target release: left as it is
                if compatibility_code(reference, ctx):
                    return None  # compatibility code keeps the old name on purpose
                rewritten = self.rewrite_reference(reference, entry, ctx)
                if rewritten is None or not rewritten[2]:
                    return None
                edits.extend(edit for edit in rewritten[0] if edit not in edits)
                safe = safe and rewritten[1] and entry.replacement is Replacement.RENAME
        position = _alias_position(statement, base)
        if position is None:
            return None
        with at_scope(ctx, owner):
            removal = rewrite_import(ctx, statement, {position: ()})
        if removal is None:
            return None
        return [*edits, removal], safe

    # -- imports -----------------------------------------------------------------------------

    def check_from_import(self, node: ast.ImportFrom, ctx: CheckContext) -> None:
        if node.level or not node.module:
            return
        entries = self.entries()
        for entry in entries.values():
            if entry.module and (node.module == entry.old or node.module.startswith(entry.old + ".")):
                judged = self._verdict(ctx, entry, node)
                if judged is not None:
                    message, detail = self.finding_text(node.module, entry, judged)
                    fix = self.module_from_fix(node, entry, ctx)
                    ctx.report(node, message, detail=detail, fix=fix, severity=judged.severity, calculator={})
                return
        for position, alias in enumerate(node.names):
            entry = entries.get(f"{node.module}.{alias.name}")
            if entry is None:
                continue
            judged = self._verdict(ctx, entry, node)
            if judged is None:
                continue
            message, detail = self.finding_text(f"{node.module}.{alias.name}", entry, judged)
            fix = self.from_import_fix(node, position, entry, ctx)
            ctx.report(alias, message, detail=detail, fix=fix, severity=judged.severity, calculator={})

    def check_import(self, node: ast.Import, ctx: CheckContext) -> None:
        for position, alias in enumerate(node.names):
            for entry in self.entries().values():
                if not entry.module or not (alias.name == entry.old or alias.name.startswith(entry.old + ".")):
                    continue
                judged = self._verdict(ctx, entry, node)
                if judged is None:
                    continue
                message, detail = self.finding_text(alias.name, entry, judged)
                fix = self.import_fix(node, position, entry, ctx)
                ctx.report(alias, message, detail=detail, fix=fix, severity=judged.severity, calculator={})

    def _fix_kind(self, entry: NameMigration, safe: bool) -> Applicability:
        return Applicability.SAFE if safe and entry.replacement is Replacement.RENAME else Applicability.UNSAFE

    def _members_ok(self, ctx: CheckContext, bound: str, entry: NameMigration) -> bool:
        """Whether every use of a module alias reads a name the new module has."""
        if entry.members is None:
            return True
        uses = uses_of(ctx, bound, ctx.scope)
        if uses is None:
            return False
        for use, scope in uses:
            with at_scope(ctx, scope):
                parent = parent_of(ctx, use)
            if not (isinstance(parent, ast.Attribute) and parent.value is use and parent.attr in entry.members):
                return False
        return True

    def module_from_fix(self, node: ast.ImportFrom, entry: NameMigration, ctx: CheckContext) -> Fix | None:
        """``from old.module import a, b`` -> ``from new.module import a, b``."""
        assert node.module is not None
        if entry.replacement is Replacement.MANUAL or entry.new is None:
            return self.manual_fix(entry)
        if entry.members is not None and any(alias.name not in entry.members for alias in node.names):
            return self.manual_fix(entry)
        module = entry.new + node.module[len(entry.old) :]
        names = ", ".join(_alias_text(alias) for alias in node.names)
        edit = rewrite_import(
            ctx, node, {0: (f"from {module} import {names}",), **{i: () for i in range(1, len(node.names))}}
        )
        if edit is None:
            return self.manual_fix(entry)
        return ctx.fix(f"Import from `{module}`", self._fix_kind(entry, True), [edit])

    def import_fix(self, node: ast.Import, position: int, entry: NameMigration, ctx: CheckContext) -> Fix | None:
        """``import old.module as m`` -> ``import new.module as m``; a bare ``import old.module`` is left alone."""
        alias = node.names[position]
        if entry.replacement is Replacement.MANUAL or entry.new is None or alias.asname is None:
            return self.manual_fix(entry)
        if not self._members_ok(ctx, alias.asname, entry):
            return self.manual_fix(entry)
        module = entry.new + alias.name[len(entry.old) :]
        edit = rewrite_import(ctx, node, {position: (f"import {module} as {alias.asname}",)})
        if edit is None:
            return self.manual_fix(entry)
        return ctx.fix(f"Import `{module}`", self._fix_kind(entry, True), [edit])

    def from_import_fix(
        self, node: ast.ImportFrom, position: int, entry: NameMigration, ctx: CheckContext
    ) -> Fix | None:
        """``from module import old [as x]`` -> an import of the new name, its reads renamed when needed."""
        alias = node.names[position]
        bound = alias.asname or alias.name
        if entry.module:
            # `from torch_xla.experimental import xla_sharding as xs`
            if entry.replacement is Replacement.MANUAL or entry.new is None or not self._members_ok(ctx, bound, entry):
                return self.manual_fix(entry)
            parent, _, leaf = entry.new.rpartition(".")
            line = f"from {parent} import {leaf}" + (f" as {bound}" if bound != leaf else "")
            edit = rewrite_import(ctx, node, {position: (line,)})
            if edit is None:
                return self.manual_fix(entry)
            return ctx.fix(f"Import `{entry.new}`", self._fix_kind(entry, True), [edit])
        if entry.replacement is Replacement.MANUAL or entry.expression is not None:
            return self.manual_fix(entry)
        new = entry.from_import if entry.from_import and self.replacement_name(ctx, entry) == entry.new else None
        new = new or self.replacement_name(ctx, entry)
        if new is None:
            return self.manual_fix(entry)
        parent, _, leaf = new.rpartition(".")
        uses = uses_of(ctx, bound, ctx.scope)
        if uses is None:
            return self.manual_fix(entry)
        edits: list[Edit] = []
        safe = True
        for use, scope in uses:
            with at_scope(ctx, scope):
                adjusted = call_adjustments(ctx, use, entry)
            if adjusted is None:
                return self.manual_fix(entry)
            edits.extend(adjusted[0])
            safe = safe and adjusted[1]
        if alias.asname is None and leaf != alias.name and not _bound_anywhere(ctx, leaf):
            # Rename the reads: `from jax.numpy import fix` -> `from jax.numpy import trunc`, `fix(x)` -> `trunc(x)`.
            line = f"from {parent} import {leaf}"
            edits.extend(Edit(ctx.source.node_range(use), leaf) for use, _ in uses)
        else:
            line = f"from {parent} import {leaf}" + (f" as {bound}" if bound != leaf else "")
        edit = rewrite_import(ctx, node, {position: (line,)})
        if edit is None:
            return self.manual_fix(entry)
        return ctx.fix(f"Import `{new}`", self._fix_kind(entry, safe), [edit, *edits])


def _through_base(
    ctx: CheckContext, base: str | None, new: str, new_module: str
) -> tuple[str, tuple[Edit, ...]] | None:
    """``new`` spelled from the name the old reference started with, when that name reaches it
    (``j.tree_flatten`` -> ``j.tree.flatten`` after ``import jax as j``)."""
    if base is None:
        return None
    module = ctx.index.resolve_name(base, ctx.scope)
    if module is None or not new.startswith(module + "."):
        return None
    if new_module != module and not (module == "jax" and loaded_with_jax(new_module)):
        return None
    return base + new[len(module) :], ()


def _base_name(node: ast.expr) -> str | None:
    """The name an attribute chain starts from (``pltpu`` in ``pltpu.MemorySpace.HOST``)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _reference_above(use: ast.Name, ctx: CheckContext, table: Mapping[str, NameMigration]) -> ast.Attribute | None:
    """The attribute expression over ``use`` that names an old name of ``table``."""
    current: ast.AST = use
    while True:
        parent = parent_of(ctx, current)
        if not isinstance(parent, ast.Attribute) or parent.value is not current:
            return None
        if (ctx.qualname(parent) or "") in table:
            return parent
        current = parent


def _module_imported(ctx: CheckContext, module: str) -> bool:
    """Whether an import statement of the file names ``module`` (or a submodule) itself."""
    for node, _ in ctx.index.nodes.get(ast.Import, ()):
        assert isinstance(node, ast.Import)
        if any(alias.name == module or alias.name.startswith(module + ".") for alias in node.names):
            return True
    for node, _ in ctx.index.nodes.get(ast.ImportFrom, ()):
        assert isinstance(node, ast.ImportFrom)
        if node.module and not node.level:
            if node.module == module or node.module.startswith(module + "."):
                return True
            if any(f"{node.module}.{alias.name}" == module for alias in node.names):
                return True
    return False
