"""The resharding calculator against the collectives XLA's SPMD partitioner emits on 8 CPU devices.

The oracle places an array with the source spec, runs ``jax.jit(lambda a: a, out_shardings=target)``
and reads the compiled HLO's collectives. The calculator's collective must be the one XLA uses (for
``general``: XLA uses some collective), and a reshard it calls free must compile to no collective.
"""

from __future__ import annotations

from typing import Any

import pytest
from xlalens.explainers.calculators import CalculatorInputError, get_calculator

# (shape, source, target) on mesh x:4,y:2.
ORACLE_CASES: tuple[tuple[str, str, str], ...] = (
    ("16,16", "x,None", "x,None"),
    ("16,16", "x", "x,None"),
    ("16,16", "x,None", "None,None"),
    ("16,16", "x,y", ""),
    ("16,16", "(x,y),None", "x,None"),
    ("16,16", "None,None", "x,None"),
    ("16,16", "", "x,y"),
    ("16,16", "x,None", "(x,y),None"),
    ("16,16", "x,None", "None,x"),
    ("16,16", "x,y", "y,x"),
    ("16,16,8", "x,None,y", "None,x,y"),
    ("16,16", "x,None", "y,None"),
    ("16,16", "y,None", "x,None"),
)

_ORACLE = r"""
import json, re, sys
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
spec = lambda entries: P(*[tuple(e) if isinstance(e, list) else e for e in entries])
answers = []
for shape, source, target in json.load(sys.stdin):
    x = jax.device_put(jnp.zeros(shape), NamedSharding(mesh, spec(source)))
    hlo = jax.jit(lambda a: a, out_shardings=NamedSharding(mesh, spec(target))).lower(x).compile().as_text()
    found = re.findall(r"\b(all-gather|all-to-all|collective-permute|reduce-scatter|all-reduce)(?:-start)?\(", hlo)
    answers.append(sorted(set(found)))
print(json.dumps(answers))
"""


def _run(shape: str, source: str, target: str) -> Any:
    return get_calculator("reshard").run(
        {"mesh": "x:4,y:2", "shape": shape, "dtype": "f32", "source": source, "target": target}
    )


def _entries(text: str) -> list[Any]:
    from xlalens.explainers.calculators.shard_shape import parse_spec

    return [list(entry) if isinstance(entry, tuple) else entry for entry in parse_spec(text)]


@pytest.fixture(scope="module")
def xla_collectives(run_jax: Any) -> list[list[str]]:
    payload = [[[int(d) for d in shape.split(",")], _entries(s), _entries(t)] for shape, s, t in ORACLE_CASES]
    return run_jax(_ORACLE, payload, devices=8)


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(ORACLE_CASES)), ids=[f"{c[1]}->{c[2]}" for c in ORACLE_CASES])
def test_names_the_collective_xla_emits(index: int, xla_collectives: list[list[str]]) -> None:
    result = _run(*ORACLE_CASES[index])
    emitted = xla_collectives[index]
    if result.collective in ("none", "dynamic-slice"):
        assert emitted == [] and result.received == 0
    elif result.collective == "general":
        assert emitted, "XLA moved nothing"
    else:
        assert result.collective in emitted, (result.collective, emitted)


def test_bytes_per_device() -> None:
    gather = _run("1024,1024", "x,None", "")
    assert (gather.source_bytes, gather.target_bytes, gather.received) == (1 << 20, 4 << 20, 3 << 20)
    swap = _run("1024,1024", "x,None", "None,x")
    assert swap.received == (1 << 20) * 3 // 4


@pytest.mark.parametrize(
    ("field", "text"), [("source", "z,None"), ("target", "x,x"), ("source", "x,None,None"), ("mesh", "x:4,x:2")]
)
def test_specs_jax_rejects_name_their_field(field: str, text: str) -> None:
    values = {"mesh": "x:4,y:2", "shape": "16,16", "source": "x", "target": "None", field: text}
    with pytest.raises(CalculatorInputError) as error:
        get_calculator("reshard").run(values)
    assert error.value.field == field


def test_uneven_split_names_its_spec() -> None:
    with pytest.raises(CalculatorInputError) as error:
        get_calculator("reshard").run({"mesh": "x:4,y:2", "shape": "6,16", "source": "None", "target": "x"})
    assert error.value.field == "target" and "not divisible by 4" in error.value.message
