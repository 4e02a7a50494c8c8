"""Inlay hints and hovers for Pallas calls: the grid's step count, each block's origin, and the calculator.

Every ``pl.pallas_call`` whose grid is known gets a hint after its grid (``6 steps``), and every
``pl.BlockSpec`` whose block sizes are known gets one after its index map with the element where
the block of each step starts (``origin (192·i, 0)``). Each hint also covers a span for hovers —
the BlockSpec call, or the ``pallas_call`` name — and carries the BlockSpec calculator's inputs
when every number is known, so the language server shows the calculator's table for flagged and
unflagged specs alike. On a call compiled for TPU whose every index map is known, the grid's hint
carries the pipeline calculator instead: the per-step schedule of copies and write-backs that
Mosaic's double buffering gives those index maps.

Examples:
    >>> code = '''
    ... import jax
    ... import jax.numpy as jnp
    ... from jax.experimental import pallas as pl
    ... x = jnp.ones((1000, 128))
    ... spec = pl.BlockSpec((200, 128), lambda i: (i, 0))
    ... y = pl.pallas_call(lambda x_ref, o_ref: None, out_shape=x, grid=(pl.cdiv(1000, 200),),
    ...                    in_specs=[spec], out_specs=spec)(x)
    ... '''
    >>> from xlalens.analyzers.annotate import hints_for_source
    >>> [hint.label for hint in hints_for_source(code, "pallas")]
    ['origin (200·i, 0)', '(5,) = 5 steps']
"""

from __future__ import annotations

import ast

from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.models.hints import SpanHint, register_hint_provider
from xlalens.analyzers.models.pallas.model import PallasInstance, PallasModel, SpecUse, pallas_model
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import ModuleIndex

BLOCKSPEC_CALCULATOR = "blockspec"
PIPELINE_CALCULATOR = "pipeline"
_GRID_NAMES = "ijklmn"


def pallas_hints(index: ModuleIndex, interpreter: Interpreter, text: SourceText) -> list[SpanHint]:
    """Hints for every ``pallas_call`` of the module and the BlockSpecs it uses, in source order."""
    model = pallas_model(index, interpreter, text.text)
    hints: list[SpanHint] = []
    seen_specs: set[int] = set()
    for site in model:
        instance = _best_instance(site.instances)
        if instance is None:
            continue
        grid_hint = _grid_hint(instance, model, text)
        if grid_hint is not None:
            hints.append(grid_hint)
        for use in instance.uses:
            if use.spec is None or id(use.spec.node) in seen_specs:
                continue
            hint = _block_hint(use, text)
            if hint is not None:
                seen_specs.add(id(use.spec.node))
                hints.append(hint)
    return sorted(hints, key=lambda hint: hint.position)


register_hint_provider("pallas", pallas_hints)


def _best_instance(instances: list[PallasInstance]) -> PallasInstance | None:
    """The evaluation with the most known numbers: the function's own, unless a call site knows more."""

    def known(instance: PallasInstance) -> int:
        return sum(use.calculator_inputs(others=False, dtype_fallback=True) is not None for use in instance.uses)

    return max(instances, key=known, default=None)


def _grid_hint(instance: PallasInstance, model: PallasModel, text: SourceText) -> SpanHint | None:
    grid = instance.grid
    if grid is None or None in grid:
        return None
    steps = 1
    for size in grid:
        steps *= size or 0
    expr = instance.grid_expr
    sizes = "(" + ", ".join(str(g) for g in grid) + ("," if len(grid) == 1 else "") + ")"
    literal = isinstance(expr, ast.Tuple) and all(isinstance(e, ast.Constant) for e in expr.elts)
    count = f"{steps:,} step{'' if steps == 1 else 's'}"
    label = count if literal else f"{sizes} = {count}"
    anchor = expr if expr is not None and instance.site.contains(expr) else instance.site.node.func
    pipeline = _pipeline_inputs(instance)
    description = f"grid {sizes}: the kernel body runs {steps:,} times{instance.call_text()}"
    if pipeline is not None:
        return SpanHint(
            position=text.node_range(anchor).end,
            target="grid",
            label=label,
            description=f"{description}; on TPU each operand's blocks are double-buffered",
            span=text.node_range(instance.site.node.func),
            calculator=PIPELINE_CALCULATOR,
            inputs=pipeline,
        )
    main = next((use for use in instance.uses if use.link_inputs() is not None), None)
    return SpanHint(
        position=text.node_range(anchor).end,
        target="grid",
        label=label,
        description=description,
        span=text.node_range(instance.site.node.func),
        calculator=BLOCKSPEC_CALCULATOR,
        inputs=main.link_inputs() if main is not None else None,
    )


def _pipeline_inputs(instance: PallasInstance) -> dict[str, object] | None:
    """The pipeline calculator's grid and index maps, for a TPU call whose every operand's map is known."""
    grid = instance.grid
    operands, (outputs, _) = instance.operands, instance.outputs
    if not grid or None in grid or len(grid) > len(_GRID_NAMES) or operands is None or outputs is None:
        return None
    if not instance.targets_tpu or len(instance.uses) != len(operands) + len(outputs):
        return None  # the schedule is Mosaic TPU's, and it needs every operand's blocks
    maps: dict[bool, list[str]] = {False: [], True: []}
    for use in instance.uses:
        index_map = use.index_map_text()
        if index_map == "constant":
            dims = use.block_dims
            if dims is None:
                return None
            zeros = ", ".join("0" for _ in dims) + ("," if len(dims) == 1 else "")
            index_map = f"lambda {', '.join(_GRID_NAMES[: len(grid)])}: ({zeros})"
        if index_map is None:
            return None
        maps[use.is_output].append(index_map)
    # The schedule names each operand by its source text when that is a name, else by its position.
    numbered = [f"{'out' if use.is_output else 'in'}{use.operand.position}" for use in instance.uses]
    texts = [use.operand.text for use in instance.uses]
    names = [text if text.isidentifier() else n for text, n in zip(texts, numbered, strict=True)]
    if len(set(names)) != len(names):
        names = numbered
    named = iter(names)
    return {
        "grid": list(grid),
        "inputs": "; ".join(f"{next(named)}: {index_map}" for index_map in maps[False]),
        "outputs": "; ".join(f"{next(named)}: {index_map}" for index_map in maps[True]),
    }


def _block_hint(use: SpecUse, text: SourceText) -> SpanHint | None:
    assert use.spec is not None
    block = use.block_sizes()
    info = use.index_map
    if block is None or info is None or info.returned is None or len(info.returned) != len(block):
        return None
    grid_rank = len(use.instance.grid or ())
    params = set(info.params[:grid_rank])
    origins = []
    for size, expr in zip(block, info.returned, strict=True):
        source = ast.unparse(expr)
        if size is None or size == 1:
            origins.append(source)
        elif isinstance(expr, ast.Constant):
            origins.append(str(size * expr.value) if isinstance(expr.value, int) else source)
        elif isinstance(expr, ast.Name) and expr.id in params:
            origins.append(f"{size}·{expr.id}")
        else:
            origins.append(f"{size}·({source})")
    label = "origin (" + ", ".join(origins) + ("," if len(origins) == 1 else "") + ")"
    anchor = info.node if _inside(info.node, use.spec.node) else use.spec.node
    return SpanHint(
        position=text.node_range(anchor).end,
        target="block",
        label=label,
        description=(
            f"the block of {use.operand.label} (`{use.operand.text}`) at each grid step starts at element "
            f"{label[len('origin ') :]}: block index times block size"
        ),
        span=text.node_range(use.spec.node),
        calculator=BLOCKSPEC_CALCULATOR,
        inputs=use.link_inputs(),
    )


def _inside(node: ast.AST, root: ast.AST) -> bool:
    return any(child is node for child in ast.walk(root))
