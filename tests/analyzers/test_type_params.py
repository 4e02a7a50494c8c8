"""Files with Python 3.12's type parameters and ``type`` statements are analyzed on 3.11, at exact positions."""

from __future__ import annotations

import ast
import sys

import pytest
from xlalens.analyzers import check_source, fix_source
from xlalens.analyzers.core import type_params

GENERIC_PALLAS_MODULE = """\
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

type Shape = tuple[int, ...]
type BlockMap[T] = "callable[[T], tuple[int, ...]]"


def add_one_kernel[T](x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


class Tiler[T: jnp.ndarray, *Ts, **P]:
    def __init__(self, block: int):
        self.block = block

    def tile[S](self, x: S) -> S:
        return x


@jax.jit
def step(x):
    if x > 0:
        return x
    print(x)
    return pl.pallas_call(add_one_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


def update[T](
    n: int,
):
    buf = jnp.zeros(n)
    buf[0] = 1.0
    return buf
"""


def test_a_generic_pallas_module_is_analyzed_at_exact_positions():
    found = [
        (d.code, d.line, d.range.start.column, d.range.end.column) for d in check_source(GENERIC_PALLAS_MODULE, "k.py")
    ]
    assert found == [("JX101", 25, 7, 12), ("JX106", 27, 4, 12), ("JX601", 35, 4, 16)]


def test_fixes_apply_to_the_original_text():
    fixed = fix_source(GENERIC_PALLAS_MODULE, "k.py")
    assert 'jax.debug.print("{}", x)' in fixed.source and "buf = buf.at[0].set(1.0)" in fixed.source
    assert "def update[T](" in fixed.source and "type Shape = tuple[int, ...]" in fixed.source
    assert [d.code for d in fixed.remaining] == ["JX101"]


@pytest.mark.skipif(sys.version_info < (3, 12), reason="compares with the real 3.12 parser")
def test_every_other_node_sits_where_python_3_12_puts_it():
    def positions(tree: ast.AST) -> set[tuple[int, int, int, int]]:
        # Lines 7 and 8 hold the `type` statements, a TypeAlias on 3.12 and an assignment here.
        return {
            (n.lineno, n.col_offset, n.end_lineno, n.end_col_offset)
            for n in ast.walk(tree)
            if hasattr(n, "end_lineno") and n.lineno not in (7, 8)
        }

    rewritten = type_params.parse(GENERIC_PALLAS_MODULE)
    assert rewritten is not None
    assert positions(rewritten) <= positions(ast.parse(GENERIC_PALLAS_MODULE))


def test_type_statements_become_assignments_and_type_as_a_name_is_untouched():
    tree = type_params.parse("type Alias = int\ntype = 3\nprint(type(x))\nx.type = 4\n")
    assert tree is not None
    first = tree.body[0]
    assert isinstance(first, ast.Assign) and first.targets[0].id == "Alias" and first.col_offset == 5
    assert type_params.parse("type = 3\nprint(type(x))\n") is None


@pytest.mark.parametrize(
    ("text", "code", "line"),
    [
        ("import jax\ntype A = int\nx = '\\N{NO SUCH NAME}'\n", "E999", 3),
        ("import jax\ndef f[T](x):\n    return x +\n", "E999", 3),
        ("import jax\nif True: type Shape = tuple[int, ...]\n", "E998", 1),
        # Characters `str.splitlines` breaks at but tokenize does not once shifted every position after them.
        ("import jax\nx = 1 \x0b 2\ntype A = int\ndef f[T](x):\n    return x\n", "E999", 2),
        ("import jax\n# a form feed \x0c here\ntype A = int\ndef f[T](x):\n    return x +\n", "E999", 5),
    ],
)
def test_what_still_does_not_parse_keeps_its_own_verdict(text, code, line):
    assert [(d.code, d.line) for d in check_source(text, "m.py")] == [(code, line)]


PEP_701_KERNEL_HELPERS = """\
import jax
import jax.numpy as jnp

config = {"block": 128}


@jax.jit
def step(x, table):
    print(f"block {config["block"]!r:>6} and {x}")
    label = f"{"\\n".join(["a", "b"])} {f"{table["k"]}"}"
    if x > 0:
        return x
    return -x
"""


def test_pep_701_fstrings_are_analyzed_at_exact_positions():
    found = [(d.code, d.line, d.range.start.column) for d in check_source(PEP_701_KERNEL_HELPERS, "f.py")]
    assert found == [("JX106", 9, 4), ("JX101", 11, 7)]


def test_pep_701_fstrings_come_back_as_joined_strings():
    tree = type_params.parse(PEP_701_KERNEL_HELPERS)
    assert tree is not None
    [first] = [
        node for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) and node.lineno == 9 and len(node.values) > 1
    ]
    assert [type(value).__name__ for value in first.values] == [
        "Constant",
        "FormattedValue",
        "Constant",
        "FormattedValue",
    ]
    assert first.values[1].conversion == ord("r") and ast.unparse(first.values[1].value) == "config['block']"
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "F"]


def test_the_print_fix_in_a_pep_701_file():
    fixed = fix_source(PEP_701_KERNEL_HELPERS, "f.py")
    assert 'jax.debug.print("block {!r:>6} and {}", config["block"], x)' in fixed.source
    assert 'label = f"{"\\n".join(["a", "b"])} {f"{table["k"]}"}"' in fixed.source


# A generic kernel helper whose type parameters span lines, and error messages built from f-strings
# joined implicitly with each other and with plain strings (the shapes real 3.12 Pallas code has).
GENERIC_HELPER_WITH_JOINED_MESSAGES = """\
import jax
import jax.numpy as jnp


def cast_pair[
    Q: (jax.Array, int), K: (jax.Array, int)  # constrained
](q: Q, k: K, block: int) -> tuple[Q, K]:
    if block % 8:
        raise ValueError(
            f"block {block} is not a multiple of 8;"  # the message
            " got "
            f"{block:.4e} instead" f" ({q.shape})."
        )
    return q, k


@jax.jit
def step(x):
    label = "plain"
    f"{label} expression statement"
    print(f"value {x}" f" dtype {x.dtype}")
    return x + (f"{x}" + "!" and 1)
"""


def test_type_parameters_over_several_lines_and_joined_fstrings_are_analyzed():
    found = [(d.code, d.line, d.range.start.column) for d in check_source(GENERIC_HELPER_WITH_JOINED_MESSAGES, "g.py")]
    assert found == [("JX106", 21, 4)]


def test_implicitly_joined_strings_come_back_as_one_joined_string():
    tree = type_params.parse(GENERIC_HELPER_WITH_JOINED_MESSAGES)
    assert tree is not None
    raised = tree.body[2].body[0].body[0].exc.args[0]
    assert isinstance(raised, ast.JoinedStr)
    assert [type(v).__name__ for v in raised.values] == [
        "Constant",
        "FormattedValue",
        "Constant",
        "FormattedValue",
        "Constant",
        "FormattedValue",
        "Constant",
    ]
    assert raised.values[2].value == " is not a multiple of 8; got "
    assert raised.values[3].format_spec.values[0].value == ".4e"
    # A `+` the file wrote stays an addition; a string statement after a string statement stays two statements.
    step = tree.body[3]
    assert isinstance(step.body[1], ast.Expr) and isinstance(step.body[1].value, ast.JoinedStr)
    returned = step.body[3].value.right.values[0]
    assert isinstance(returned, ast.BinOp) and isinstance(returned.op, ast.Add)
    params = tree.body[2].args.args
    assert [(p.arg, p.lineno, p.col_offset) for p in params] == [("q", 7, 2), ("k", 7, 8), ("block", 7, 14)]
