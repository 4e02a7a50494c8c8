"""One check of one file: parse once, index names, find traced functions, run the rules.

Rules subscribe to node types; the engine hands each collected node to every rule that wants
it, skipping rules that only apply inside traced functions when the node is outside one. Calls
go only to the rules whose ``call_names``/``call_prefixes``/``call_attributes`` name their callee or
whose ``call_filter`` accepts them (and to the rules that want every call): a file has thousands of
calls and most rules care about a handful of functions. Values are computed lazily, per function,
the first time a rule asks.
"""

from __future__ import annotations

import ast
import ctypes
import fnmatch
import gc
import os
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import TypeVar

from xlalens.analyzers.core import stages, type_params
from xlalens.analyzers.core.codes import LIMIT_EXCEEDED, NEWER_SYNTAX, NON_RULE_CODES, SYNTAX_ERROR, ignored_by
from xlalens.analyzers.core.diagnostics import (
    Diagnostic,
    Position,
    Range,
    Severity,
)
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.dependency_check import check_dependency_file
from xlalens.analyzers.engine.newer_syntax import needs_newer_python
from xlalens.analyzers.engine.registry import select_rules
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.inputs.dependency_files import is_dependency_file
from xlalens.analyzers.models.extensions import module_interpreter
from xlalens.analyzers.models.tracing.traced_functions import TracedFunction
from xlalens.analyzers.semantics.calls import GatedCallFilter
from xlalens.analyzers.semantics.names import ModuleIndex, Scope

_TRIGGERS = ("jax", "torch_xla", "torch-xla")

MAX_FILE_CHARS = 2_000_000
"""Larger files are not analyzed (``E903``): generated code, and a check's time and memory grow with size."""
TIME_LIMIT_S = 60.0
"""A check that runs longer is stopped and reported (``E900``) instead of holding up the run."""
_STACK_BYTES = 256 * 1024 * 1024
_RECURSION_LIMIT = 12_000
"""Deep but valid code (a 500-term sum, a 200-branch ``elif`` chain, a 200-link ``.at[0].set(1)`` chain)
nests the tree hundreds of levels deep, and the analysis recurses a few frames per level: checks run
on a thread whose stack is large enough for this many frames."""

_T = TypeVar("_T")


class CheckTimeout(Exception):
    """A check ran past :data:`TIME_LIMIT_S` and was stopped."""


def _bounded(function: Callable[..., _T], *args: object) -> _T:
    """Run ``function`` on a thread with a deep stack, stopping it after :data:`TIME_LIMIT_S`.

    A check stuck in Python code is interrupted by an asynchronous :class:`CheckTimeout`; one stuck
    inside a C call cannot be, and is left behind (its thread is a daemon) while the caller gets
    the timeout.
    """
    outcome: list[object] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(function(*args))
        except BaseException as error:  # handed to the caller's thread, which raises it
            failure.append(error)

    if sys.getrecursionlimit() < _RECURSION_LIMIT:
        sys.setrecursionlimit(_RECURSION_LIMIT)
    with _STACK_SIZE_LOCK:
        previous = threading.stack_size(_STACK_BYTES)
        try:
            thread = threading.Thread(target=run, name="xlalens-check", daemon=True)
            thread.start()
        finally:
            threading.stack_size(previous)
    thread.join(TIME_LIMIT_S)
    if thread.is_alive() and thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(CheckTimeout))
        thread.join(1.0)
    if failure and not isinstance(failure[0], CheckTimeout):
        raise failure[0]
    if not outcome:
        raise CheckTimeout(f"the check ran longer than {TIME_LIMIT_S:g} s and was stopped")
    return outcome[0]  # type: ignore[return-value]


_STACK_SIZE_LOCK = threading.Lock()


def _limit_diagnostic(path: str, message: str) -> Diagnostic:
    return Diagnostic(
        code=LIMIT_EXCEEDED,
        message=f"Not analyzed: {message}",
        path=path,
        range=Range(Position(1, 0), Position(1, 0)),
        severity=Severity.INFO,
    )


def _nesting_depth(tree: ast.AST) -> int:
    """How deep ``tree`` nests, counted without recursion."""
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _syntax_diagnostics(source: SourceText, path: str, error: SyntaxError) -> list[Diagnostic]:
    if needs_newer_python(source.text, error):
        return [
            Diagnostic(
                code=NEWER_SYNTAX,
                message="Not analyzed: this file uses syntax newer than the Python running xlalens "
                "(analyzing it needs Python >= 3.12)",
                path=path,
                range=Range(Position(1, 0), Position(1, 0)),
                severity=Severity.INFO,
            )
        ]
    line = max(error.lineno or 1, 1)
    column = max((error.offset or 1) - 1, 0)
    column = min(column, len(source.line(line)))
    return [
        Diagnostic(
            code=SYNTAX_ERROR,
            message=f"SyntaxError: {error.msg}",
            path=path,
            range=Range(Position(line, column), Position(line, column)),
            severity=Severity.ERROR,
        )
    ]


def _per_file_ignored(path: str, settings: Settings) -> tuple[str, ...]:
    if not settings.per_file_ignores:
        return ()
    relative = path
    if settings.root and os.path.isabs(path):
        try:
            relative = os.path.relpath(path, settings.root)
        except ValueError:
            relative = path
    relative = relative.replace(os.sep, "/")
    name = os.path.basename(relative)
    ignored: list[str] = []
    for pattern, codes in settings.per_file_ignores.items():
        if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(name, pattern):
            ignored.extend(codes)
    return tuple(ignored)


def _selected_rules(path: str, settings: Settings) -> list[type[Rule]]:
    ignored = _per_file_ignored(path, settings)
    return select_rules(settings.select, (*settings.ignore, *ignored), settings.extend_select, settings.preview)


def run_rules(
    text: str, path: str, settings: Settings, rules: Sequence[type[Rule]] | None = None
) -> tuple[list[Diagnostic], SourceText]:
    """Check ``text`` with ``rules`` (the settings' selection when None), before suppressions.

    Dependency files (``requirements*.txt``, ``pyproject.toml``, ``setup.cfg``) go to the rules that
    check declared requirements instead of the Python pipeline. Codes that are not rules (``E999``)
    are dropped where the settings or the per-file ignores name them.
    """
    diagnostics, source = _run_rules(text, path, settings, rules)
    # Only a non-rule finding needs the ignores matched again: rule selection already applied them.
    if (settings.ignore or settings.per_file_ignores) and any(d.code in NON_RULE_CODES for d in diagnostics):
        ignored = (*settings.ignore, *_per_file_ignored(path, settings))
        diagnostics = [d for d in diagnostics if d.code not in NON_RULE_CODES or not ignored_by(d.code, ignored)]
    return diagnostics, source


def _run_rules(
    text: str, path: str, settings: Settings, rules: Sequence[type[Rule]] | None
) -> tuple[list[Diagnostic], SourceText]:
    if is_dependency_file(path):
        return check_dependency_file(text, path, settings, _selected_rules(path, settings) if rules is None else rules)
    source = SourceText(text)
    if not any(trigger in text for trigger in _TRIGGERS):
        return [], source
    if len(text) > MAX_FILE_CHARS:
        too_large = f"{len(text):,} characters, over the limit of {MAX_FILE_CHARS:,}"
        return [_limit_diagnostic(path, too_large)], source
    if rules is None:
        rules = _selected_rules(path, settings)
    # A check builds the tree, the index and the analyses, which all live until it ends and are
    # then freed by reference counting: run in between, the cycle collector would only scan them
    # again and again (a sixth of the time of a check).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _bounded(_check_python, source, path, settings, rules), source
    finally:
        if collecting:
            gc.enable()


def _check_python(source: SourceText, path: str, settings: Settings, rules: Sequence[type[Rule]]) -> list[Diagnostic]:
    """Parse one Python file and run ``rules`` on it; a file that does not parse gets its syntax finding."""
    stages.enter(stages.PARSING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = ast.parse(source.text, filename=path)
    except (RecursionError, MemoryError) as error:
        # CPython's parser reports a stack it overflowed as MemoryError ("source too complex to parse").
        name = type(error).__name__
        return [_limit_diagnostic(path, f"it nests expressions too deeply for Python's parser ({name})")]
    except (SyntaxError, ValueError) as error:
        if isinstance(error, SyntaxError):
            newer = _parse_type_params(source.text, path)
            if not isinstance(newer, ast.Module):
                return _syntax_diagnostics(source, path, newer or error)
            tree = newer
        else:
            return [
                Diagnostic(
                    code=SYNTAX_ERROR,
                    message=f"SyntaxError: {error}",
                    path=path,
                    range=Range(Position(1, 0), Position(1, 0)),
                )
            ]
    if not rules:
        return []
    stages.enter(stages.ANALYSIS)
    try:
        return _analyze(tree, source, path, settings, rules)
    except RecursionError:
        depth = _nesting_depth(tree)
        if depth < _DEEP_TREE:
            raise  # shallow code that recurses without end: an xlalens bug
        return [_limit_diagnostic(path, f"its syntax tree nests {depth:,} levels deep, too deep to follow")]


def _parse_type_params(text: str, path: str) -> ast.Module | SyntaxError | None:
    """The tree of a file that uses Python 3.12's type parameters or ``type`` statements, read by this Python.

    None when it has none; the syntax error that remains when it still does not parse (a typo
    elsewhere in a file that also uses type parameters is reported where it is).
    """
    try:
        return type_params.parse(text, path)
    except SyntaxError as error:
        return error
    except (ValueError, RecursionError):
        return None


_DEEP_TREE = 1_000
"""A recursion error on a tree this deep is the code's depth, not a loop in xlalens."""


def _analyze(
    tree: ast.Module, source: SourceText, path: str, settings: Settings, rules: Sequence[type[Rule]]
) -> list[Diagnostic]:
    instances = [rule() for rule in rules]
    by_type: dict[type[ast.AST], list[Rule]] = {}
    for instance in instances:
        for node_type in instance.node_types:
            by_type.setdefault(node_type, []).append(instance)
    # Calls, names and attributes feed the call graph (which call reaches which def, which defs escape);
    # yields tell which functions return generators; with and try blocks say which errors are expected.
    collected = {ast.Call, ast.Name, ast.Attribute, ast.Yield, ast.YieldFrom, ast.With, ast.Try, ast.TryStar}
    index = ModuleIndex(tree, {*by_type, *collected})
    interpreter = module_interpreter(index)
    traced: dict[int, TracedFunction] = interpreter.traced  # type: ignore[assignment]
    ctx = CheckContext(source, path, settings, index, traced, interpreter)
    try:
        _check_nodes(index, by_type, traced, ctx)
    finally:
        index.release()
    return _deduplicate(ctx.diagnostics)


def _check_nodes(
    index: ModuleIndex, by_type: dict[type[ast.AST], list[Rule]], traced: dict[int, TracedFunction], ctx: CheckContext
) -> None:
    """Hand each collected node to the rules that subscribe to its type."""
    traced_in: dict[int, TracedFunction | None] = {}
    for node_type, subscribers in by_type.items():
        dispatch: _CallDispatch | _AttributeDispatch | None = None
        if node_type is ast.Call:
            dispatch = _CallDispatch(subscribers, index)
        elif node_type is ast.Attribute:
            dispatch = _AttributeDispatch(subscribers, index)
        for node, scope in index.nodes.get(node_type, ()):
            rules = subscribers if dispatch is None else dispatch.rules_for(node, scope)  # type: ignore[arg-type]
            if not rules:
                continue
            key = id(scope)
            if key in traced_in:
                traced_function = traced_in[key]
            else:
                function_scope = scope.enclosing_function()
                traced_function = traced.get(id(function_scope.node)) if function_scope is not None else None
                traced_in[key] = traced_function
            ctx.scope = scope
            ctx.traced_function = traced_function
            for rule in rules:
                if rule.needs_traced and traced_function is None:
                    continue
                ctx.rule = type(rule)
                try:
                    rule.check(node, ctx)
                except Exception:
                    stages.enter(f"{stages.ANALYSIS} (rule {rule.code}, line {getattr(node, 'lineno', 0)})")
                    raise


class _CallDispatch:
    """Which of the rules that look at calls get a given call: decided once per callee spelling.

    A rule with ``call_names`` gets the calls whose callee resolves to one of them or starts with
    one of its ``call_prefixes``, or is a method named in its ``call_attributes``; a rule with a
    ``call_filter`` gets the calls that pass it (each filter is asked once per call, however many
    rules share it); a rule with neither gets every call. The rules keep their order.
    """

    def __init__(self, rules: list[Rule], index: ModuleIndex) -> None:
        self.rules = rules
        self.index = index
        self.names = frozenset().union(*(rule.call_names or () for rule in rules))
        self.prefixes = tuple(dict.fromkeys(prefix for rule in rules for prefix in rule.call_prefixes))
        self.attributes = frozenset().union(*(rule.call_attributes for rule in rules))
        filters = dict.fromkeys(rule.call_filter for rule in rules if rule.call_filter is not None)
        # A gated filter that no call of this module can pass is left out: its rules get only the
        # calls their names give them, as if it had refused each call.
        self.filters = tuple(
            accepts for accepts in filters if not isinstance(accepts, GatedCallFilter) or accepts.module_may_pass(index)
        )
        self.asked = tuple(
            accepts.accepts if isinstance(accepts, GatedCallFilter) else accepts for accepts in self.filters
        )
        self.chosen: dict[tuple[str | None, str | None, tuple[bool, ...]], list[Rule]] = {}

    def rules_for(self, call: ast.Call, scope: Scope) -> list[Rule]:
        func = call.func
        name = self.index.qualname(func, scope) if isinstance(func, ast.Name | ast.Attribute) else None
        if name is not None and name not in self.names and not name.startswith(self.prefixes):
            name = None
        attribute = func.attr if isinstance(func, ast.Attribute) and func.attr in self.attributes else None
        passed = tuple([accepts(call, scope, self.index) for accepts in self.asked])
        key = (name, attribute, passed)
        chosen = self.chosen.get(key)
        if chosen is None:
            accepted = {accepts for accepts, ok in zip(self.filters, passed, strict=True) if ok}
            chosen = self.chosen[key] = [rule for rule in self.rules if _gets(rule, name, attribute, accepted)]
        return chosen


class _AttributeDispatch:
    """Which of the rules that look at attribute expressions get a given one.

    A file has thousands of attributes (``self.x``, ``jnp.zeros``) and a rule with
    ``reference_names`` cares about a few qualified names: an attribute whose own name ends none
    of them (and is none of the ``reference_attributes``) is refused by one set lookup, before its
    qualified name is resolved.
    """

    def __init__(self, rules: list[Rule], index: ModuleIndex) -> None:
        self.index = index
        self.open = [rule for rule in rules if rule.reference_names is None]
        self.narrowed = [rule for rule in rules if rule.reference_names is not None]
        self.leaves = frozenset(
            {name.rsplit(".", 1)[-1] for rule in self.narrowed for name in rule.reference_names or ()}
            | {name for rule in self.narrowed for name in rule.reference_attributes}
        )
        self.everything = not self.narrowed

    def rules_for(self, node: ast.Attribute, scope: Scope) -> list[Rule]:
        if self.everything or node.attr not in self.leaves:
            return self.open
        name = self.index.qualname(node, scope)
        chosen = [
            rule
            for rule in self.narrowed
            if node.attr in rule.reference_attributes or (name is not None and name in (rule.reference_names or ()))
        ]
        return [*self.open, *chosen] if self.open else chosen


def _gets(rule: Rule, name: str | None, attribute: str | None, accepted: set[object]) -> bool:
    """Whether ``rule`` gets a call whose callee (kept only when some rule names it) is ``name``."""
    if rule.call_names is None and rule.call_filter is None:
        return True
    if rule.call_filter is not None and rule.call_filter in accepted:
        return True
    if rule.call_names is None:
        return False
    if attribute is not None and attribute in rule.call_attributes:
        return True
    return name is not None and (name in rule.call_names or name.startswith(rule.call_prefixes))


def _deduplicate(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[str, Range]] = set()
    unique = []
    for diagnostic in diagnostics:
        key = (diagnostic.code, diagnostic.range)
        if key not in seen:
            seen.add(key)
            unique.append(diagnostic)
    return unique


def suppress(diagnostics: list[Diagnostic], source: SourceText) -> list[Diagnostic]:
    """Drop findings silenced by ``# noqa`` comments or a file-level ``# xlalens: noqa``."""
    if not diagnostics:
        return diagnostics
    if source.file_noqa:
        return [d for d in diagnostics if d.code == SYNTAX_ERROR]
    noqa = source.noqa
    if not noqa:
        return diagnostics
    kept = []
    for diagnostic in diagnostics:
        comment = noqa.get(diagnostic.noqa_line)
        silenced = comment is not None and (not comment.codes or diagnostic.code in comment.codes)
        if silenced and diagnostic.code != SYNTAX_ERROR:
            continue
        kept.append(diagnostic)
    return kept
