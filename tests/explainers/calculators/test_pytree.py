"""The pytree calculator against real ``jax.tree_util``: leaves, key paths, ``PyTreeDef`` text and equality."""

from __future__ import annotations

from typing import Any

import pytest
from xlalens.explainers.calculators import CalculatorInputError, get_calculator
from xlalens.explainers.calculators.carry_check import Leaf, Tree, parse_tree

# (tree, other) pairs; an empty other means no comparison.
ORACLE_CASES: tuple[tuple[str, str], ...] = (
    ("f32[3]", ""),
    ("(f32[3],)", "[f32[3]]"),
    ("()", "[]"),
    ("{}", "None"),
    ("None", "None"),
    ("(f32[3], None)", "(f32[3], f32[])"),
    ("{'b': f32[2], 'a': (f32[1], [f32[1], None])}", "{'a': (f32[1], [f32[1], None]), 'b': i32[7]}"),
    ("[(f32[1],)]", "[(f32[1], f32[1])]"),
    ("{'w': f32[3,2], 'b': None, 'opt': (i32[], [f32[3,2], f32[2]])}", "{'w': f32[3,2], 'b': f32[2]}"),
    ("{'a': f32[], 'b': f32[]}", "{'a': f32[], 'c': f32[]}"),
    ("(~f32[], ~i32[])", "(f32[], i32[])"),
    ("{'x': {'y': {'z': bf16[2]}}}", "{'x': {'y': [bf16[2]]}}"),
)

_ORACLE = r"""
import json, sys
import jax.numpy as jnp
from jax import tree_util

def build(spec):
    kind = spec["t"]
    if kind == "leaf":
        return jnp.zeros(spec["shape"], jnp.dtype(spec["dtype"]))
    if kind == "none":
        return None
    if kind == "dict":
        return {key: build(item) for key, item in spec["items"].items()}
    items = [build(item) for item in spec["items"]]
    return tuple(items) if kind == "tuple" else items

answers = []
for tree_spec, other_spec in json.load(sys.stdin):
    tree = build(tree_spec)
    pairs, treedef = tree_util.tree_flatten_with_path(tree)
    answer = {
        "treedef": str(treedef),
        "paths": [tree_util.keystr(path) for path, _ in pairs],
        "num_nodes": treedef.num_nodes,
        "equal": None,
    }
    if other_spec is not None:
        answer["equal"] = treedef == tree_util.tree_structure(build(other_spec))
    answers.append(answer)
print(json.dumps(answers))
"""


def _spec(tree: Tree) -> dict[str, Any]:
    if isinstance(tree, Leaf):
        return {"t": "leaf", "dtype": tree.jax_str().split("[")[0], "shape": list(tree.shape)}
    if tree.kind == "None":
        return {"t": "none"}
    if tree.kind == "dict":
        return {"t": "dict", "items": {k: _spec(c) for k, c in zip(tree.keys, tree.children, strict=True)}}
    return {"t": tree.kind, "items": [_spec(child) for child in tree.children]}


@pytest.fixture(scope="module")
def jax_answers(run_jax: Any) -> list[dict[str, Any]]:
    payload = [[_spec(parse_tree(tree)), _spec(parse_tree(other)) if other else None] for tree, other in ORACLE_CASES]
    return run_jax(_ORACLE, payload)


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(ORACLE_CASES)), ids=[case[0] for case in ORACLE_CASES])
def test_matches_jax_tree_util(index: int, jax_answers: list[dict[str, Any]]) -> None:
    tree, other = ORACLE_CASES[index]
    result = get_calculator("pytree").run({"tree": tree, "other": other})
    answer = jax_answers[index]
    assert result.treedef == answer["treedef"]
    assert list(result.paths) == answer["paths"]
    assert result.num_nodes == answer["num_nodes"]
    if other:
        assert (not result.difference) == answer["equal"], result.difference
        assert result.status == ("ok" if answer["equal"] else "warning")


def test_bad_text_names_its_field() -> None:
    with pytest.raises(CalculatorInputError) as error:
        get_calculator("pytree").run({"tree": "{'a': f32[3}"})
    assert error.value.field == "tree"
    with pytest.raises(CalculatorInputError) as error:
        get_calculator("pytree").run({"other": "(f32[3]"})
    assert error.value.field == "other"
