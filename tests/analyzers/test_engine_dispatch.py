"""The engine hands a call only to the rules that name its callee or accept it, and rules name callees correctly."""

from __future__ import annotations

import ast
import builtins
import gc
import re
from pathlib import Path
from typing import ClassVar

import pytest
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.pipeline import run_rules
from xlalens.analyzers.engine.registry import all_rules
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.tracing.jit_wrappers import calls_jit_wrapper, jit_index, may_build_jit_wrapper
from xlalens.analyzers.semantics.names import ModuleIndex, Scope, canonical

SOURCE = """\
import jax
from jax import lax as L
from jax.lax import scan as run_scan
import numpy as np

scan = None


def body(c, x):
    return c, x


def f(xs, items):
    a = jax.lax.scan(body, 0, xs)
    b = L.scan(body, 0, xs)
    c = run_scan(body, 0, xs)
    d = np.asarray(xs).item()
    e = scan(body, 0, xs)
    items.append(a)
    return jax.jit(f)(xs)
"""

_DOTTED_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _seen_calls(*rules: type[Rule]) -> dict[str, list[str]]:
    seen: dict[str, list[str]] = {rule.code: [] for rule in rules}
    for rule in rules:
        rule.seen = seen[rule.code]  # type: ignore[attr-defined]
    run_rules(SOURCE, "dispatch.py", Settings(), rules)
    return seen


class _Recorder(Rule):
    """Records the callee of every call it is handed."""

    message = "recorded"
    explainer = "tracing#python-control-flow"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    seen: ClassVar[list[str]]

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        self.seen.append(ctx.segment(node.func))  # type: ignore[attr-defined]


class _ScanRecorder(_Recorder):
    code = "JX991"
    call_names = frozenset({"jax.lax.scan"})


class _AppendRecorder(_Recorder):
    code = "JX992"
    call_names: ClassVar[frozenset[str] | None] = frozenset()
    call_attributes = frozenset({"append", "item"})


class _EveryCallRecorder(_Recorder):
    code = "JX993"


class _NumpyRecorder(_Recorder):
    code = "JX996"
    call_names: ClassVar[frozenset[str] | None] = frozenset()
    call_prefixes = ("numpy.",)


_FILTER_ASKED: list[str] = []


def _calls_a_call(call: ast.Call, scope: Scope, index: ModuleIndex) -> bool:
    _FILTER_ASKED.append(ast.unparse(call.func))
    return isinstance(call.func, ast.Call)


class _FilteredRecorder(_Recorder):
    code = "JX997"
    call_filter = staticmethod(_calls_a_call)


class _OtherFilteredRecorder(_Recorder):
    code = "JX998"
    call_filter = staticmethod(_calls_a_call)


class _FilteredScanRecorder(_Recorder):
    code = "JX999"
    call_names = frozenset({"jax.lax.scan"})
    call_filter = staticmethod(_calls_a_call)


def test_a_rule_with_call_names_sees_only_the_calls_of_those_functions_however_spelled() -> None:
    seen = _seen_calls(_ScanRecorder)
    assert seen["JX991"] == ["jax.lax.scan", "L.scan", "run_scan"]


def test_call_attributes_match_methods_whatever_they_resolve_to() -> None:
    seen = _seen_calls(_AppendRecorder)
    assert seen["JX992"] == ["np.asarray(xs).item", "items.append"]


def test_a_rule_without_call_names_sees_every_call_in_order() -> None:
    seen = _seen_calls(_ScanRecorder, _EveryCallRecorder)
    expected = [
        "jax.lax.scan",
        "L.scan",
        "run_scan",
        "np.asarray(xs).item",
        "np.asarray",
        "scan",
        "items.append",
        "jax.jit(f)",
        "jax.jit",
    ]
    assert seen["JX993"] == expected
    assert seen["JX991"] == ["jax.lax.scan", "L.scan", "run_scan"]


def test_call_prefixes_match_every_function_of_a_module() -> None:
    seen = _seen_calls(_NumpyRecorder)
    assert seen["JX996"] == ["np.asarray"]


def test_a_call_filter_is_asked_once_per_call_for_all_the_rules_that_share_it() -> None:
    _FILTER_ASKED.clear()
    seen = _seen_calls(_FilteredRecorder, _OtherFilteredRecorder)
    assert seen["JX997"] == seen["JX998"] == ["jax.jit(f)"]
    assert len(_FILTER_ASKED) == len(set(_FILTER_ASKED)) == 9


def test_a_rule_with_call_names_and_a_call_filter_gets_the_calls_either_accepts() -> None:
    seen = _seen_calls(_FilteredScanRecorder)
    assert seen["JX999"] == ["jax.lax.scan", "L.scan", "run_scan", "jax.jit(f)"]


def test_call_prefixes_without_call_names_is_refused() -> None:
    with pytest.raises(ValueError, match="call_prefixes narrows nothing"):

        class _Broken(_Recorder):
            code = "JX994"
            call_prefixes = ("numpy.",)


def test_call_filter_on_a_rule_that_does_not_look_at_calls_is_refused() -> None:
    with pytest.raises(ValueError, match=r"does not look at ast\.Call"):

        class _Broken(_Recorder):
            code = "JX995"
            node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Subscript,)
            call_filter = staticmethod(_calls_a_call)


_JIT_SOURCES = sorted(
    path
    for folder in ("tests/fixtures/rules", "tests/oracle/cases")
    for path in (Path(__file__).resolve().parents[2] / folder).rglob("*.py")
    if "jit" in path.read_text(encoding="utf-8")
)


def test_the_jit_call_filters_accept_every_call_the_jit_index_resolves() -> None:
    assert _JIT_SOURCES
    for path in _JIT_SOURCES:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        index = ModuleIndex(tree, [ast.Call])
        jits = jit_index(index)
        for call, scope in index.nodes[ast.Call]:
            assert isinstance(call, ast.Call)
            calls = jits.of_call(call, scope) is not None
            assert calls_jit_wrapper(call, scope, index) == calls, f"{path}:{call.lineno}"
            if jits.of_expression(call, scope) is not None:
                assert may_build_jit_wrapper(call, scope, index), f"{path}:{call.lineno}"


def test_call_attributes_without_call_names_is_refused() -> None:
    with pytest.raises(ValueError, match="call_attributes narrows nothing"):

        class _Broken(_Recorder):
            code = "JX994"
            call_attributes = frozenset({"item"})


def test_call_names_on_a_rule_that_does_not_look_at_calls_is_refused() -> None:
    with pytest.raises(ValueError, match=r"does not look at ast\.Call"):

        class _Broken(_Recorder):
            code = "JX995"
            node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Subscript,)
            call_names = frozenset({"jax.lax.scan"})


@pytest.mark.parametrize("rule", [r for r in all_rules() if r.call_names is not None], ids=lambda r: r.code)
def test_declared_call_names_are_spelled_as_module_index_resolves_them(rule: type[Rule]) -> None:
    assert rule.call_names is not None
    for name in rule.call_names:
        assert _DOTTED_NAME.match(name), f"{rule.code}: {name!r} is not a dotted name"
        assert canonical(name) == name, f"{rule.code}: {name!r} resolves as {canonical(name)!r}"
        module, _, function = name.partition(".")
        if module == "builtins":
            assert hasattr(builtins, function), f"{rule.code}: {name!r} is not a builtin"
    for attribute in rule.call_attributes:
        assert _IDENTIFIER.match(attribute), f"{rule.code}: method name {attribute!r} is not an identifier"


@pytest.mark.parametrize("rule", [r for r in all_rules() if r.call_names], ids=lambda r: r.code)
def test_each_declared_call_name_is_what_its_import_resolves_to(rule: type[Rule]) -> None:
    assert rule.call_names is not None
    for name in sorted(rule.call_names):
        module, function = name.rsplit(".", 1)
        tree = ast.parse(f"import {module} as m\nm.{function}()\n")
        index = ModuleIndex(tree, [ast.Call])
        call = tree.body[1].value  # type: ignore[attr-defined]
        assert index.qualname(call.func, index.module_scope) == name


def test_a_check_leaves_no_reference_cycle_behind() -> None:
    gc.collect()
    gc.disable()
    try:
        run_rules(SOURCE, "dispatch.py", Settings(), all_rules())
        assert not any(isinstance(thing, ModuleIndex) for thing in gc.get_objects())
    finally:
        gc.enable()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_check_leaves_the_cycle_collector_as_it_found_it(enabled: bool) -> None:
    (gc.enable if enabled else gc.disable)()
    try:
        run_rules(SOURCE, "dispatch.py", Settings(), all_rules())
        run_rules("import jax\nx = (", "broken.py", Settings(), all_rules())
        assert gc.isenabled() is enabled
    finally:
        gc.enable()


ATTRIBUTE_SOURCE = """\
import jax
import jax as j
from jax import tree_util as tu
import jax.numpy as jnp

a = jax.tree_map(abs, [1])
b = j.tree_map(abs, [1])
c = tu.tree_map(abs, [1])
d = jnp.ones(2).device_buffer
e = self_like.tree_map
"""


class _AttributeRecorder(Rule):
    """Records every attribute expression it is handed."""

    message = "recorded"
    explainer = "tracing#python-control-flow"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Attribute,)
    needs_traced = False
    seen: ClassVar[list[str]]

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        self.seen.append(ctx.segment(node))


class _TreeMapRecorder(_AttributeRecorder):
    code = "JX981"
    reference_names = frozenset({"jax.tree_map"})
    reference_attributes = frozenset({"device_buffer"})


class _EveryAttributeRecorder(_AttributeRecorder):
    code = "JX982"


def test_reference_names_match_attributes_however_the_module_is_spelled() -> None:
    _TreeMapRecorder.seen = []
    _EveryAttributeRecorder.seen = []
    run_rules(ATTRIBUTE_SOURCE, "attributes.py", Settings(), [_TreeMapRecorder, _EveryAttributeRecorder])
    assert _TreeMapRecorder.seen == ["jax.tree_map", "j.tree_map", "jnp.ones(2).device_buffer"]
    assert "tu.tree_map" in _EveryAttributeRecorder.seen and "self_like.tree_map" in _EveryAttributeRecorder.seen


def test_reference_names_on_a_rule_that_does_not_look_at_attributes_is_refused() -> None:
    with pytest.raises(ValueError, match=r"does not look at ast\.Attribute"):

        class _Broken(_Recorder):
            code = "JX983"
            reference_names = frozenset({"jax.tree_map"})

    with pytest.raises(ValueError, match="reference_attributes narrows nothing"):

        class _AlsoBroken(_AttributeRecorder):
            code = "JX984"
            reference_attributes = frozenset({"device_buffer"})
