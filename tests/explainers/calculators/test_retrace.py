"""The retrace calculator against real ``jax.jit`` caching, and its input validation."""

from __future__ import annotations

import ast
import re
from typing import Any

import pytest
from xlalens.explainers.calculators import CalculatorInputError
from xlalens.explainers.calculators.dtypes import lookup
from xlalens.explainers.calculators.retrace import (
    CALCULATOR,
    WEAK_TYPE_LINK,
    Argument,
    Aval,
    Call,
    CallContainer,
    RetraceInputs,
    Static,
    Value,
    compute_retrace,
    parse_calls,
)

# Weak-typed leaves are built from Python scalars, so the oracle cases only use ~f32[] and ~i32[].
# 64-bit dtypes are left out: without jax_enable_x64 JAX turns them into 32-bit ones.
ORACLE_CASES = (
    "x:f32[8,128]; x:f32[8,128]; x:f32[4,128]; x:f32[8,128]",
    "x:f32[16] scale:~f32[]; x:f32[16] scale:f32[]; x:f32[16] scale:~f32[]",
    "x:f32[8] n:static(2); x:f32[8] n:static(3); x:f32[8] n=static(3); x:f32[8] n:static(3.0); "
    "x:f32[8] n:static((1, 2)); x:f32[8] n:static((1.0, 2)); x:f32[8] n:static(True); x:f32[8] n:static(1)",
    "x:f32[8]; fn:new x:f32[8]; x:f32[8]; fn:new x:f32[8]; fn:new x:f32[4]",
    "params:{w:f32[3,3], b:f32[3]} x:f32[3]; params:{w:f32[3,3]} x:f32[3]; params:(f32[3,3], f32[3]) x:f32[3]; "
    "params:{w:f32[3,3], c:f32[3]} x:f32[3]; params:{'w':f32[3,3], 'b':f32[3]} x:f32[3]",
    "x:f32[3]; x:f32[5]; x:f32[4]; x:f32[]; x:i32[]; x:~i32[]; x:~f32[]; x:bf16[2,2]",
    "x:f32[3] y:f32[3]; x:f32[4] y:i32[4]; x=f32[3] y=f32[3]; y=f32[3] x=f32[3]; x:f32[3] y=f32[3]",
    "x:None; x:f32[3]; x:[f32[3], None]; x:[f32[3], f32[2]]; x:[f32[3], None]; x:(f32[3], ~f32[])",
    "x:bf16[4]; x:f16[4]; x:i8[4]; x:u8[4]; x:u32[4]; x:i16[4]; x:f8_e4m3fn[4]; x:f8_e5m2[4]; x:i4[4]; x:bool[4]",
    "x:f32[2] mode:static('add'); x:f32[2] mode:static('sub'); x:f32[2] mode:static(None); x:f32[2] mode:static('add')",
)

_ORACLE = r'''
import ast, json, logging, sys
import numpy as np
import jax
import jax.numpy as jnp

jax.config.update("jax_explain_cache_misses", True)
jax.config.update("jax_log_compiles", True)
records = []

class Keep(logging.Handler):
    def emit(self, record):
        records.append(record.getMessage())

logging.getLogger("jax").addHandler(Keep(logging.WARNING))

def build(spec):
    kind = spec["t"]
    if kind == "aval":
        if spec["weak"]:
            return {"float32": 1.0, "int32": 1}[spec["dtype"]]
        return jax.device_put(np.zeros(spec["shape"], dtype=jnp.dtype(spec["dtype"])))
    if kind == "static":
        return ast.literal_eval(spec["repr"])
    if kind == "none":
        return None
    if kind == "dict":
        return {key: build(item) for key, item in spec["items"].items()}
    items = [build(item) for item in spec["items"]]
    return tuple(items) if kind == "tuple" else items

# Each case gets its own file name, so its function and its call site are new to JAX.
TEMPLATE = """
def make():
    def f_case{index}({params}):
        return None
    return f_case{index}

def run(calls, static, records, jitted):
    g = None
    misses = []
    for new, args, kwargs in calls:
        if g is None or new:
            g = jax.jit(make(), static_argnames=static)
            jitted.append(g)
        start = len(records)
        g(*args, **kwargs)
        misses.append([r for r in records[start:] if r.startswith("TRACING CACHE MISS")])
    return misses
"""

out = []
for index, case in enumerate(json.load(sys.stdin)):
    params = ", ".join(f"{name}=None" for name in case["params"])
    namespace = {"jax": jax}
    exec(compile(TEMPLATE.format(index=index, params=params), f"<retrace-case-{index}>", "exec"), namespace)
    calls = []
    for call in case["calls"]:
        args = [build(value) for name, value, keyword in call["args"] if not keyword]
        kwargs = {name: build(value) for name, value, keyword in call["args"] if keyword}
        calls.append((call["new"], args, kwargs))
    jitted = []
    start = len(records)
    misses = namespace["run"](calls, tuple(case["static"]), records, jitted)
    compiles = sum(1 for r in records[start:] if r.startswith(f"Finished XLA compilation of jit(f_case{index})"))
    out.append({"misses": misses, "cache_size": sum(g._cache_size() for g in jitted), "compiles": compiles})
print(json.dumps(out))
'''


def _value_json(value: Value) -> dict[str, Any]:
    if isinstance(value, Aval):
        return {"t": "aval", "dtype": lookup(value.dtype).name, "shape": list(value.shape), "weak": value.weak}
    if isinstance(value, Static):
        return {"t": "static", "repr": repr(value.value)}
    if value.kind == "None":
        return {"t": "none"}
    if value.kind == "dict":
        return {"t": "dict", "items": {k: _value_json(v) for k, v in zip(value.keys, value.children, strict=True)}}
    return {"t": value.kind, "items": [_value_json(child) for child in value.children]}


def _case_json(calls: tuple[Call, ...]) -> dict[str, Any]:
    positional: list[str] = []
    keyword_only: list[str] = []
    static: set[str] = set()
    for call in calls:
        position = 0
        for argument in call.arguments:
            if isinstance(argument.value, Static):
                static.add(argument.name)
            if argument.keyword:
                keyword_only.append(argument.name)
            else:
                if position == len(positional):
                    positional.append(argument.name)
                position += 1
    params = positional + [name for name in dict.fromkeys(keyword_only) if name not in positional]
    return {
        "params": params,
        "static": sorted(static),
        "calls": [
            {"new": call.new_function, "args": [[a.name, _value_json(a.value), a.keyword] for a in call.arguments]}
            for call in calls
        ],
    }


@pytest.fixture(scope="module")
def jax_answers(run_jax: Any) -> list[dict[str, Any]]:
    return run_jax(_ORACLE, [_case_json(parse_calls(text)) for text in ORACLE_CASES])


def _jax_lines(message: str) -> tuple[tuple[str, ...], bool]:
    """The informative lines of a JAX miss record, stripped; and whether the weak-type link was glued on."""
    lines = [line.strip() for line in message.splitlines()[1:]]
    kept = tuple(
        line
        for line in lines
        if not line.startswith(("for f_case", "all previously seen cache keys differ")) and " id=" not in line
    )
    weak = bool(kept) and kept[-1].endswith(WEAK_TYPE_LINK)
    if weak:
        kept = (*kept[:-1], kept[-1].removesuffix(WEAK_TYPE_LINK))
    return tuple(_sorted_key_set(line) for line in kept), weak


def _sorted_key_set(line: str) -> str:
    """JAX prints a symmetric difference of dict keys in set order; compare them sorted."""
    match = re.search(r"symmetric difference of key sets: \{(.*)\}$", line)
    if not match:
        return line
    keys = sorted(ast.literal_eval(f"[{match.group(1).replace(' ', ',')}]"))
    return line[: match.start(1)] + " ".join(repr(key) for key in keys) + "}"


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(ORACLE_CASES)), ids=[f"case{i}" for i in range(len(ORACLE_CASES))])
def test_matches_jax(index: int, jax_answers: list[dict[str, Any]]) -> None:
    result = compute_retrace(RetraceInputs(parse_calls(ORACLE_CASES[index])))
    answer = jax_answers[index]
    assert result.traces == sum(1 for misses in answer["misses"] if misses)
    assert result.compiles == answer["compiles"]
    assert result.traces == answer["cache_size"]
    for outcome, misses in zip(result.outcomes, answer["misses"], strict=True):
        assert outcome.hit == (not misses), f"call {outcome.call}"
        if misses:
            (message,) = misses
            lines, weak = _jax_lines(message)
            assert outcome.explanation == lines, f"call {outcome.call}"
            assert outcome.weak_type_link == weak, f"call {outcome.call}"


def test_counts_and_closest_key() -> None:
    result = compute_retrace(RetraceInputs(parse_calls("x:f32[3]; x:f32[5]; x:f32[4]; x:f32[3]")))
    assert (result.traces, result.compiles, result.cache_hits, result.distinct_keys) == (3, 3, 1, 3)
    # Ties between earlier keys go to the smaller message, as in JAX: "f32[3]" sorts before "f32[5]".
    assert result.outcomes[2].closest_call == 1
    assert result.outcomes[3].hit and result.outcomes[3].closest_call == 1
    assert result.status == "warning"
    assert result.formula == "3 distinct keys → 3 traces, 3 compiles"


def test_pytree_difference_is_closer_than_type_difference() -> None:
    # JAX ranks a pytree difference (severity 1) before a type difference (severity 3).
    result = compute_retrace(RetraceInputs(parse_calls("x:f32[3]; x:(~f32[], ~i32[]); x:(~f32[], ~f32[])")))
    assert result.outcomes[2].closest_call == 1
    assert result.outcomes[2].kind == "pytree"


def test_single_trace_is_ok() -> None:
    result = compute_retrace(RetraceInputs(parse_calls("x:f32[3]; x:f32[3]")))
    assert result.status == "ok"
    assert result.headline == "2 calls → 1 trace, 1 compile, 1 cache hit"


def test_new_function_objects_repeat_the_hint() -> None:
    result = compute_retrace(RetraceInputs(parse_calls("x:f32[3]; fn:new x:f32[3]; fn:new x:f32[3]")))
    assert result.function_objects == 3
    assert [len(o.explanation) for o in result.outcomes] == [1, 3, 3]


def test_round_trip_through_text() -> None:
    text = "x:f32[8,128] n:static('add') p:{w:~bf16[2], 'odd key':(i4[1],)}; fn:new q=[None, u8[0]]"
    inputs = CALCULATOR.parse({"calls": text})
    assert CALCULATOR.parse(CALCULATOR.query(inputs)) == inputs


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        ";",
        "x",
        "x:",
        "x:f33[3]",
        "x:f32",
        "x:f32[3",
        "x:f32[-1]",
        "x:f32[a]",
        "x:f32[99999999999999999999999]",
        "x:f32[4611686018427387904]",
        "x:~bool[]",
        "x:static([1, 2])",
        "x:static({1: 2})",
        "x:static(",
        "x:static(foo)",
        "x:(static(1),)",
        "x:{a:f32[3], a:f32[3]}",
        "x:{a f32[3]}",
        "x:(f32[3]",
        "x:f32[3] fn:new",
        "x:f32[3] x:f32[3]",
        "x=f32[3] y:f32[3]",
        "x:f32[3]; y:f32[3]",
        "x:f32[3] n:static(1); x:f32[3] n:f32[]",
        "x:f32[3] y:f32[3]; x:f32[3] x=f32[3]",
        "x:f32[3] y=f32[3] x=f32[3]",
        "x:" + "(" * 40 + ")" * 40,
        "x:f32[" + ",".join(["1"] * 65) + "]",
        "x:f32[1];" * 10_001,
        "\x00",
        "ünïcode:f32[3]",
        "x:f32[3] " * 25_000,
    ],
    ids=lambda text: repr(text[:40]),
)
def test_bad_calls_name_the_field(text: str) -> None:
    with pytest.raises(CalculatorInputError) as error:
        CALCULATOR.run({"calls": text})
    assert error.value.field == "calls"


def test_too_many_keys_for_one_function() -> None:
    text = "; ".join(f"x:f32[{n}]" for n in range(502))
    with pytest.raises(CalculatorInputError, match="distinct keys"):
        CALCULATOR.run({"calls": text})


@pytest.mark.parametrize(
    "calls",
    [
        ("x:f32[3]",),
        (),
        (Call((Argument("x", Static([1, 2])),)),),
        (Call((Argument("x", Aval("f33", (3,))),)),),
        (Call((Argument("x", Aval("f32", (-1,))),)),),
        (Call((Argument("x", CallContainer("dict", (Aval("f32", ()),))),)),),
        (Call((Argument("x", 3),)),),  # type: ignore[arg-type]
    ],
    ids=range(7),
)
def test_inputs_built_in_code_are_checked(calls: tuple[Call, ...]) -> None:
    with pytest.raises(CalculatorInputError) as error:
        RetraceInputs(calls)
    assert error.value.field == "calls"


def test_node_formatting() -> None:
    assert str(CallContainer("tuple", (Aval("f32", (3,)),))) == "(f32[3],)"
    assert str(Static("a")) == "static('a')"
