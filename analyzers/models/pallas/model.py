"""The Pallas model: each ``pallas_call`` of a module with its grid, its specs and the arrays they cut.

A ``pl.pallas_call(kernel, out_shape=…, grid=…, in_specs=[…], out_specs=…)(x, y)`` is read
from the interpreter's values (see :mod:`.pallas_values`): the grid (also from
``grid_spec=pltpu.PrefetchScalarGridSpec(…)``), one :class:`SpecUse` per operand and output that
pairs its ``BlockSpec`` with the array's shape and dtype, the scratch shapes, the compiler
params and ``interpret``. The operands' shapes come from the function the call is in; when that
function is called in the same file with arguments of known shapes (a wrapper such as
``def add(x, y): return pl.pallas_call(…)(x, y)``), each such call site gives one more
:class:`PallasInstance` whose values follow that call's arguments into the body.

Index maps are read from their source: a ``lambda`` or a ``def`` made of simple assignments and one
``return``. Their result is rendered as the BlockSpec calculator's index-map text (free names
replaced by the integers they hold, ``jnp.minimum``/``jnp.maximum`` as ``min``/``max``), and the
calculator evaluates it over the grid. Anything that is not such arithmetic (a scalar-prefetch
ref, an unknown name) leaves the map unevaluated, so the rules that need it stay silent.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.models.pallas.values import (
    PALLAS_CALL,
    BlockDim,
    BlockSpecValue,
    CompilerParamsValue,
    GridSpecValue,
    InterpretParamsValue,
    PallasCallValue,
    ScratchValue,
    ShapeDtype,
    short_name,
)
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import BindingKind, FunctionNode, ModuleIndex, Scope, positional_params
from xlalens.analyzers.semantics.values import UNKNOWN, Array, Const, Dict, Dim, FunctionRef, Seq, Value
from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.blockspec import (
    TPUS,
    BlockSpecInputs,
    BlockSpecResult,
    OtherBuffer,
    compute_blockspec,
    format_other_buffers,
)
from xlalens.explainers.calculators.fields import CalculatorInputError

DEFAULT_TPU = "v5e"
_MAX_CALL_SITES = 8
_TPU_MODULES = ("jax.experimental.pallas.tpu", "jax._src.pallas.mosaic")
_GPU_MODULES = (
    "jax.experimental.pallas.triton",
    "jax.experimental.pallas.mosaic_gpu",
    "jax._src.pallas.triton",
    "jax._src.pallas.mosaic_gpu",
)
_MIN_MAX = {
    "jax.numpy.minimum": "min",
    "jax.numpy.maximum": "max",
    "jax.lax.min": "min",
    "jax.lax.max": "max",
    "builtins.min": "min",
    "builtins.max": "max",
}
_INDEX_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)
_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort", "update"})
VMEM_SPACES = (None, "vmem")
"""Memory spaces whose blocks live in VMEM (``None`` is the default, VMEM on TPU)."""

NameLookup = Callable[[str, Scope], int | None]
"""The integer a name read by an index map holds (``None`` when it is not a known integer)."""


@dataclass(frozen=True)
class Operand:
    """An array a kernel reads or writes.

    Attributes:
        label: JAX's name for it in errors: ``args[0]``, ``outputs[1]``, or ``outputs`` for the
            only output when ``out_shape`` is a single array.
        text: The source text it comes from (``x``, or the ``out_shape`` expression).
        shape: Its shape (``None`` for unknown dimensions), or ``None`` when the rank is unknown.
        dtype: Its dtype name, or ``None``.
        expr: The expression it comes from.
        position: Its index among the operands (after scalar prefetch) or the outputs.
    """

    label: str
    text: str
    shape: tuple[Dim, ...] | None
    dtype: str | None
    expr: ast.AST
    position: int = 0


class IndexMapInfo:
    """What the source of one index map says: its parameters, what it returns, and its arithmetic.

    Args:
        node: The ``lambda`` or ``def``.
        index: The module, for names and scopes.
    """

    def __init__(self, node: FunctionNode, index: ModuleIndex) -> None:
        self.node = node
        self.index = index
        self.scope = index.scope_of(node)
        args = node.args
        self.params = positional_params(node)
        required_keyword = any(default is None for default in args.kw_defaults)
        self.min_args = None if required_keyword else len(self.params) - len(args.defaults)
        self.max_args = None if args.vararg is not None else len(self.params)
        self.returned = self._returned()

    @property
    def name(self) -> str:
        """``<lambda>`` or the function's name, as JAX prints it."""
        return "<lambda>" if isinstance(self.node, ast.Lambda) else self.node.name

    def accepts(self, count: int) -> bool | None:
        """Whether the map can be called with ``count`` positional arguments (``None``: cannot tell)."""
        if self.min_args is None:
            return None
        return self.min_args <= count and (self.max_args is None or count <= self.max_args)

    def _statements(self) -> list[ast.stmt] | None:
        """The body as ``name = …`` assignments then one ``return``, or ``None``."""
        if isinstance(self.node, ast.Lambda):
            return [ast.Return(self.node.body)]
        body = list(self.node.body)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
            return None
        for statement in body[:-1]:
            if not (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
            ):
                return None
        return body

    def _returned(self) -> list[ast.expr] | None:
        """The returned index expressions, one per block dimension, when the return is a literal tuple."""
        statements = self._statements()
        if statements is None:
            return None
        value = statements[-1].value  # type: ignore[attr-defined]
        if isinstance(value, ast.Tuple | ast.List):
            if any(isinstance(element, ast.Starred) for element in value.elts):
                return None
            return list(value.elts)
        if self._scalar(value):
            return [value]
        return None

    def _scalar(self, expr: ast.expr) -> bool:
        """Whether ``expr`` is visibly one integer: arithmetic on parameters and literals."""
        if isinstance(expr, ast.Name):
            return expr.id in self.params
        if isinstance(expr, ast.Constant):
            return type(expr.value) is int
        if isinstance(expr, ast.BinOp):
            return isinstance(expr.op, _INDEX_OPS) and self._scalar(expr.left) and self._scalar(expr.right)
        if isinstance(expr, ast.UnaryOp):
            return isinstance(expr.op, ast.USub | ast.UAdd) and self._scalar(expr.operand)
        return False

    @property
    def returns(self) -> int | None:
        """How many block indices the map returns, when its source shows it."""
        return None if self.returned is None else len(self.returned)

    def all_zero(self) -> bool:
        """Whether every returned index is the literal ``0`` (a trivial window when the block is the array)."""
        return self.returned is not None and all(
            isinstance(e, ast.Constant) and e.value == 0 and type(e.value) is int for e in self.returned
        )

    def render(self, grid_rank: int, lookup: NameLookup) -> str | None:
        """The map as the calculator's ``lambda`` text over the ``grid_rank`` grid indices.

        Names other than the grid indices are replaced by the integers they hold (``lookup``);
        ``None`` when anything is not integer arithmetic on them (a scalar-prefetch ref, an
        unknown name, a call).
        """
        statements = self._statements()
        if statements is None or self.accepts(grid_rank) is False or len(self.params) < grid_rank:
            return None
        grid_params = self.params[:grid_rank]
        local: dict[str, ast.expr | None] = {}
        renderer = _Renderer(set(grid_params), local, lookup, self.index, self.scope)
        for statement in statements[:-1]:
            assert isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name)
            local[statement.targets[0].id] = renderer.visit(statement.value)
        if self.returned is None:
            return None
        rendered = [renderer.visit(expr) for expr in self.returned]
        if any(part is None for part in rendered):
            return None
        body = ", ".join(ast.unparse(part) for part in rendered if part is not None)
        return f"lambda {', '.join(grid_params)}: ({body}{',' if len(rendered) == 1 else ''})"


class _Renderer:
    """Rewrites an index expression into the calculator's language (or ``None``)."""

    def __init__(
        self,
        params: set[str],
        local: Mapping[str, ast.expr | None],
        lookup: NameLookup,
        index: ModuleIndex,
        scope: Scope | None,
    ) -> None:
        self.params = params
        self.local = local
        self.lookup = lookup
        self.index = index
        self.scope = scope

    def visit(self, expr: ast.expr) -> ast.expr | None:
        if isinstance(expr, ast.Constant):
            return expr if type(expr.value) is int else None
        if isinstance(expr, ast.Name):
            if expr.id in self.params:
                return ast.Name(expr.id, ast.Load())
            if expr.id in self.local:
                return self.local[expr.id]
            if self.scope is None:
                return None
            number = self.lookup(expr.id, self.scope)
            return None if number is None else ast.Constant(number)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, _INDEX_OPS):
            left, right = self.visit(expr.left), self.visit(expr.right)
            return None if left is None or right is None else ast.BinOp(left, expr.op, right)
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub | ast.UAdd):
            operand = self.visit(expr.operand)
            return None if operand is None else ast.UnaryOp(expr.op, operand)
        if isinstance(expr, ast.Call) and self.scope is not None and len(expr.args) >= 2 and not expr.keywords:
            name = _MIN_MAX.get(self.index.qualname(expr.func, self.scope) or "")
            parts = [self.visit(arg) for arg in expr.args]
            if name is None or any(part is None for part in parts):
                return None
            return ast.Call(ast.Name(name, ast.Load()), [p for p in parts if p is not None], [])
        return None


@dataclass(frozen=True)
class SpecUse:
    """One operand or output of a ``pallas_call`` with the BlockSpec that cuts it.

    Attributes:
        instance: The call it belongs to.
        operand: The array.
        spec: The BlockSpec, or ``None`` when none is given (the whole array, index map all zeros).
        is_output: Whether it is an output.
        aliased: Whether an input aliases this output (``input_output_aliases``), or it may.
        expr: The spec's expression in this call (an entry of the ``in_specs`` list, the
            ``out_specs`` argument), when it is written there.
    """

    instance: PallasInstance
    operand: Operand
    spec: BlockSpecValue | None
    is_output: bool
    aliased: bool = False
    expr: ast.expr | None = None

    @property
    def defined_here(self) -> bool:
        """Whether the BlockSpec is built inside this call's own spec expression (not shared by name)."""
        if self.spec is None or self.expr is None:
            return self.spec is not None and self.expr is None and self.instance.site.contains(self.spec.node)
        return any(node is self.spec.node for node in ast.walk(self.expr))

    @functools.cached_property
    def index_map(self) -> IndexMapInfo | None:
        """The index map's source, when it is a local ``lambda`` or ``def``."""
        if self.spec is None or not isinstance(self.spec.index_map, FunctionRef):
            return None
        return IndexMapInfo(self.spec.index_map.node, self.instance.model.index)

    @property
    def memory_space(self) -> str | None:
        """The spec's memory space (``None`` for the default)."""
        return None if self.spec is None else self.spec.memory_space

    @property
    def block_dims(self) -> tuple[BlockDim, ...] | None:
        """The block's dimensions; the array's own shape for a whole-array spec."""
        if self.spec is not None and self.spec.block is not None:
            return self.spec.block
        shape = self.operand.shape
        if shape is None or (self.spec is not None and not self.spec.block_known):
            return None
        return tuple(BlockDim("blocked", size) for size in shape)

    @property
    def block_rank(self) -> int | None:
        """The block's rank when known."""
        if self.spec is None or self.spec.block is None:
            return None
        return len(self.spec.block)

    def block_sizes(self) -> tuple[int | None, ...] | None:
        """Block sizes as the calculator takes them (``None`` = squeezed), when every one is known."""
        dims = self.block_dims
        if dims is None or any(d.kind not in ("blocked", "squeezed") or d.size is None for d in dims):
            return None
        return tuple(None if d.kind == "squeezed" else d.size for d in dims)

    def whole_array(self) -> bool:
        """Whether the spec is the whole array (no spec, or ``block_shape=None``)."""
        return self.spec is None or (self.spec.block is None and self.spec.block_known)

    def index_map_text(self) -> str | None:
        """The calculator's ``index-map`` text: ``constant`` for all zeros, else the rendered lambda."""
        grid = self.instance.grid
        if grid is None:
            return None
        if self.spec is None or (isinstance(self.spec.index_map, Const) and self.spec.index_map.value is None):
            return "constant"
        info = self.index_map
        if info is None:
            return None
        if not grid:
            return "constant" if info.all_zero() and info.accepts(self.instance.prefetch_count or 0) else None
        return info.render(len(grid), self.instance.name_lookup)

    def buffers(self) -> int | None:
        """VMEM copies the pipeline keeps: 2 by default, ``pl.Buffered(n)``'s count, ``None`` if unknown."""
        if self.spec is None or self.spec.pipeline_mode is None:
            return 2
        return self.spec.pipeline_mode.count

    def calculator_inputs(self, *, others: bool = True, dtype_fallback: bool = False) -> BlockSpecInputs | None:
        """The BlockSpec calculator's inputs for this operand, when every number is known.

        Args:
            others: Include the kernel's other VMEM buffers and its ``vmem_limit_bytes``.
            dtype_fallback: Use ``f32`` for an unknown dtype (for checks that do not depend on it).
        """
        shape = self.operand.shape
        block = self.block_sizes()
        grid = self.instance.grid
        text = self.index_map_text()
        buffers = self.buffers()
        dtype = self.operand.dtype or ("f32" if dtype_fallback else None)
        if shape is None or None in shape or block is None or grid is None or None in grid or text is None:
            return None
        if dtype is None or buffers not in (1, 2) or len(block) != len(shape):
            return None
        if not grid and text != "constant":
            return None
        try:
            return BlockSpecInputs(
                array=tuple(d for d in shape if d is not None),
                dtype=dtype,
                block=block,
                grid=tuple(g for g in grid if g is not None) or None,
                index_map=text,
                tpu=self.instance.model.tpu,
                buffers=buffers,  # type: ignore[arg-type]
                other_buffers=self.instance.other_buffers(self) if others else (),
                vmem_limit=self.instance.vmem_limit if others else None,
            )
        except CalculatorInputError:
            return None

    def result(self, *, dtype_fallback: bool = False) -> BlockSpecResult | None:
        """The BlockSpec calculator's result for this operand (without the other buffers); computed once."""
        if dtype_fallback not in self._results:
            inputs = self.calculator_inputs(others=False, dtype_fallback=dtype_fallback)
            self._results[dtype_fallback] = None if inputs is None else compute_blockspec(inputs)
        return self._results[dtype_fallback]

    @functools.cached_property
    def _results(self) -> dict[bool, BlockSpecResult | None]:
        # Several rules ask for the same result; the dict lives in the instance's __dict__.
        return {}

    def shape_result(self, *, dtype_fallback: bool = False) -> BlockSpecResult | None:
        """The calculator's result for the block and array alone (tiling, VMEM layout), when the grid or
        index map is not known; its grid and coverage figures are those of a constant index map."""
        shape, block = self.operand.shape, self.block_sizes()
        dtype = self.operand.dtype or ("f32" if dtype_fallback else None)
        if shape is None or None in shape or block is None or dtype is None or len(block) != len(shape):
            return None
        try:
            inputs = BlockSpecInputs(tuple(d for d in shape if d is not None), dtype, block, index_map="constant")
        except CalculatorInputError:
            return None
        return compute_blockspec(inputs)

    def link_inputs(self) -> dict[str, object] | None:
        """The calculator inputs as JSON-friendly values, for diagnostics and hovers (dtype must be known).

        ``Calculator.query`` turns them into the text of a prefilled link.
        """
        inputs = self.calculator_inputs()
        if inputs is None:
            return None
        return {
            "array": list(inputs.array),
            "dtype": inputs.dtype,
            "block": list(inputs.block),
            "grid": None if inputs.grid is None else list(inputs.grid),
            "index-map": inputs.index_map,
            "tpu": inputs.tpu,
            "buffers": inputs.buffers,
            "other-buffers": format_other_buffers(inputs.other_buffers) or None,
            "vmem-limit": inputs.vmem_limit,
        }

    def vmem_buffer(self) -> OtherBuffer | None:
        """This operand as one of a kernel's VMEM buffers (ref shape, copies), when known."""
        if self.memory_space not in VMEM_SPACES or self.operand.dtype is None:
            return None
        block = self.block_sizes()
        count = self.buffers()
        if block is None or count is None:
            return None
        # A block equal to the array whose index map is all zeros is a trivial window: one buffer.
        zeros = self.spec is None or isinstance(self.spec.index_map, Const)
        if not zeros and self.index_map is not None:
            zeros = self.index_map.all_zero()
        trivial = zeros and tuple(1 if size is None else size for size in block) == self.operand.shape
        ref = tuple(size for size in block if size is not None) or (1,)
        try:
            dtype = dtypes.canonical(self.operand.dtype)
        except ValueError:
            return None
        return OtherBuffer(self.operand.label, 1 if trivial else count, ref, dtype)


class PallasInstance:
    """One ``pallas_call`` with the values of one evaluation of the function it is in.

    Args:
        site: The call.
        values: The values of the function's expressions in this evaluation.
        summary: The final values of the function's names in this evaluation.
        via: The call of the enclosing function whose arguments this evaluation follows, if any.
    """

    def __init__(
        self, site: PallasSite, values: Mapping[int, Value], summary: Mapping[str, Value], via: ast.Call | None
    ) -> None:
        self.site = site
        self.model = site.model
        self.values = values
        self.summary = summary
        self.via = via

    def value(self, expr: ast.AST | None) -> Value:
        """The value of an expression in this evaluation.

        A name whose list the function changes in place (``specs.append(…)``, ``specs[0] = …``)
        is unknown: the interpreter follows assignments, not mutation.
        """
        if expr is None or (isinstance(expr, ast.Name) and expr.id in self.site.mutated_names):
            return UNKNOWN
        return self.values.get(id(expr), UNKNOWN)

    def keyword(self, name: str) -> ast.expr | None:
        """The expression given for a ``pallas_call`` parameter (``out_shape`` may be positional)."""
        node = self.site.node
        for keyword in node.keywords:
            if keyword.arg == name:
                return keyword.value
        if name == "out_shape" and len(node.args) > 1 and not isinstance(node.args[0], ast.Starred):
            return node.args[1]
        return None

    @functools.cached_property
    def grid_spec(self) -> GridSpecValue | None:
        """The ``grid_spec=`` value when it is a known GridSpec."""
        value = self.value(self.keyword("grid_spec"))
        return value if isinstance(value, GridSpecValue) else None

    def spec_argument(self, name: str) -> tuple[Value | None, ast.expr | None]:
        """The value and expression of ``grid``/``in_specs``/``out_specs``/``scratch_shapes``.

        Read from the grid spec when one is given; ``(None, None)`` when not given at all, and
        ``(UNKNOWN, expr)`` when a grid spec the analysis cannot follow is given.
        """
        grid_spec_expr = self.keyword("grid_spec")
        if grid_spec_expr is not None:
            spec = self.grid_spec
            if spec is None:
                return UNKNOWN, grid_spec_expr
            value = {
                "grid": spec.grid,
                "in_specs": spec.in_specs,
                "out_specs": spec.out_specs,
                "scratch_shapes": spec.scratch_shapes,
            }[name]
            expr = spec.argument(name)
            if isinstance(expr, ast.Name) and expr.id in self.site.mutated_names:
                return UNKNOWN, expr
            return value, expr or spec.node
        expr = self.keyword(name)
        return (None, None) if expr is None else (self.value(expr), expr)

    @functools.cached_property
    def grid(self) -> tuple[int | None, ...] | None:
        """The grid's sizes (``None`` for a size not known), or ``None`` when its rank is unknown."""
        value, _ = self.spec_argument("grid")
        if value is None:
            return ()
        if isinstance(value, Const) and type(value.value) is int:
            return (value.value,)
        if not isinstance(value, Seq):
            return None
        sizes: list[int | None] = []
        for item in value.items:
            if isinstance(item, Seq) and len(item.items) == 2:
                item = item.items[1]  # a named grid axis: (name, size)
            sizes.append(item.value if isinstance(item, Const) and type(item.value) is int else None)
        return tuple(sizes)

    @property
    def grid_expr(self) -> ast.expr | None:
        """The expression of the grid, if one is given."""
        return self.spec_argument("grid")[1]

    @functools.cached_property
    def prefetch_count(self) -> int | None:
        """``num_scalar_prefetch`` (0 without a ``PrefetchScalarGridSpec``), or ``None`` if unknown."""
        if self.keyword("grid_spec") is None:
            return 0
        spec = self.grid_spec
        if spec is None:
            return None
        count = spec.num_scalar_prefetch
        return count.value if isinstance(count, Const) and type(count.value) is int else None

    @functools.cached_property
    def operands(self) -> list[Operand] | None:
        """The operands after the scalar-prefetch ones, or ``None`` when they are not known."""
        call = self.site.invocation
        if call is None or call.keywords or any(isinstance(arg, ast.Starred) for arg in call.args):
            return None
        skip = self.prefetch_count
        if skip is None:
            return None
        found = []
        for position, arg in enumerate(call.args[skip:]):
            shape, dtype = _shape_dtype(self.value(arg))
            found.append(Operand(f"args[{position}]", self.model.segment(arg), shape, dtype, arg, position))
        return found

    @functools.cached_property
    def outputs(self) -> tuple[list[Operand] | None, bool]:
        """The outputs from ``out_shape``, and whether ``out_shape`` is a single leaf (not a sequence)."""
        expr = self.keyword("out_shape")
        value = self.value(expr)
        if expr is None:
            return None, False
        if isinstance(value, ShapeDtype | Array):
            shape, dtype = _shape_dtype(value)
            return [Operand("outputs", self.model.segment(expr), shape, dtype, expr)], True
        if isinstance(value, Seq):
            elements = expr.elts if isinstance(expr, ast.Tuple | ast.List) else [expr] * len(value.items)
            found = []
            for position, (item, element) in enumerate(zip(value.items, elements, strict=True)):
                if not isinstance(item, ShapeDtype | Array):
                    return None, False
                shape, dtype = _shape_dtype(item)
                text = self.model.segment(element)
                found.append(Operand(f"outputs[{position}]", text, shape, dtype, element, position))
            return found, False
        return None, False

    @functools.cached_property
    def aliased_outputs(self) -> set[int] | None:
        """Outputs that alias an input (``input_output_aliases``); ``None`` when not known."""
        expr = self.keyword("input_output_aliases")
        if expr is None:
            return set()
        value = self.value(expr)
        if not isinstance(value, Dict) or not all(isinstance(v, Const) and type(v.value) is int for v in value.values):
            return None
        return {v.value for v in value.values if isinstance(v, Const) and isinstance(v.value, int)}

    @functools.cached_property
    def uses(self) -> list[SpecUse]:
        """Every operand and output paired with its BlockSpec, where the pairing is certain."""
        uses: list[SpecUse] = []
        operands = self.operands
        in_specs, in_expr = self.spec_argument("in_specs")
        if operands is not None:
            if in_specs is None:
                uses.extend(SpecUse(self, operand, None, False) for operand in operands)
            elif isinstance(in_specs, Seq) and len(in_specs.items) == len(operands):
                uses.extend(
                    SpecUse(self, operand, spec, False, expr=_element(in_expr, position))
                    for position, (operand, spec) in enumerate(zip(operands, in_specs.items, strict=True))
                    if isinstance(spec, BlockSpecValue)
                )
        outputs, leaf = self.outputs
        out_specs, out_expr = self.spec_argument("out_specs")
        aliased = self.aliased_outputs
        if outputs is not None:
            pairs: list[tuple[Operand, BlockSpecValue | None, ast.expr | None]] = []
            if out_specs is None:
                pairs = [(output, None, None) for output in outputs]
            elif leaf and isinstance(out_specs, BlockSpecValue):
                pairs = [(outputs[0], out_specs, out_expr)]
            elif not leaf and isinstance(out_specs, Seq) and len(out_specs.items) == len(outputs):
                pairs = [
                    (output, spec, _element(out_expr, position))
                    for position, (output, spec) in enumerate(zip(outputs, out_specs.items, strict=True))
                    if isinstance(spec, BlockSpecValue)
                ]
            for output, spec, expr in pairs:
                uses.append(SpecUse(self, output, spec, True, aliased is None or output.position in aliased, expr))
        return uses

    @functools.cached_property
    def scratch(self) -> list[ScratchValue] | None:
        """The scratch buffers, or ``None`` when some are not known."""
        value, _ = self.spec_argument("scratch_shapes")
        if value is None:
            return []
        found: list[ScratchValue] = []
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, Seq):
                stack.extend(reversed(item.items))
            elif isinstance(item, ScratchValue):
                found.append(item)
            else:
                return None
        return found

    @functools.cached_property
    def vmem_limit(self) -> int | None:
        """``vmem_limit_bytes`` from the compiler params, when it is a literal."""
        value = self.value(self.keyword("compiler_params"))
        limit: Value = Const(None)
        if isinstance(value, CompilerParamsValue):
            limit = value.vmem_limit
        elif isinstance(value, Dict) and "mosaic" in value.keys:
            mosaic = value.values[value.keys.index("mosaic")]
            if isinstance(mosaic, Dict) and "vmem_limit_bytes" in mosaic.keys:
                limit = mosaic.values[mosaic.keys.index("vmem_limit_bytes")]
        if isinstance(limit, Const) and type(limit.value) is int and limit.value > 0:
            return limit.value
        return None

    @functools.cached_property
    def interpreted(self) -> bool | None:
        """Whether ``interpret`` is on (``True``, ``InterpretParams``), off, or not known."""
        expr = self.keyword("interpret")
        if expr is None:
            return False
        value = self.value(expr)
        if isinstance(value, InterpretParamsValue):
            return True
        if isinstance(value, Const) and isinstance(value.value, bool | int | type(None)):
            return bool(value.value)
        return None

    @functools.cached_property
    def targets_tpu(self) -> bool:
        """Whether this call is compiled by the Pallas TPU (Mosaic) backend.

        Off in interpret mode. Otherwise the call's compiler params decide; then TPU-only grid or
        scratch specs; then the configuration's ``target``; then the module: it imports
        ``pallas.tpu`` and no GPU Pallas backend.
        """
        if self.interpreted is not False:
            return False
        params = self.value(self.keyword("compiler_params"))
        if isinstance(params, CompilerParamsValue) and params.platform is not None:
            return params.platform == "tpu"
        if isinstance(params, Dict):
            return "mosaic" in params.keys
        if (self.grid_spec is not None and self.grid_spec.tpu) or any(
            isinstance(scratch, ScratchValue) for scratch in self.scratch or ()
        ):
            return True
        if self.model.target is not None:
            return self.model.target == "tpu"
        return self.model.imports_tpu and not self.model.imports_gpu

    def other_buffers(self, use: SpecUse) -> tuple[OtherBuffer, ...]:
        """The kernel's VMEM buffers other than ``use``'s: the other operands' blocks and VMEM scratch."""
        found = [other.vmem_buffer() for other in self.uses if other is not use]
        return (*(b for b in found if b is not None), *self.scratch_buffers())

    def scratch_buffers(self) -> list[OtherBuffer]:
        """The VMEM scratch buffers whose shape and dtype are known (one copy each)."""
        buffers = []
        for position, scratch in enumerate(self.scratch or ()):
            if scratch.space != "vmem" or scratch.shape is None or None in scratch.shape or scratch.dtype is None:
                continue
            try:
                dtype = dtypes.canonical(scratch.dtype)
            except ValueError:
                continue
            shape = tuple(d for d in scratch.shape if d is not None) or (1,)
            buffers.append(OtherBuffer(f"scratch[{position}]", 1, shape, dtype))
        return buffers

    def vmem_complete(self) -> bool:
        """Whether every operand, output and scratch buffer of the kernel is known (so the VMEM total is)."""
        operands, (outputs, _) = self.operands, self.outputs
        if operands is None or outputs is None or self.scratch is None:
            return False
        if len(self.uses) != len(operands) + len(outputs):
            return False
        vmem_uses = [use for use in self.uses if use.memory_space in VMEM_SPACES]
        if any(use.memory_space == "unknown" for use in self.uses):
            return False
        if any(use.vmem_buffer() is None for use in vmem_uses):
            return False
        return all(
            s.space != "vmem" or (s.shape is not None and None not in s.shape and s.dtype is not None)
            for s in self.scratch
        )

    def name_lookup(self, name: str, scope: Scope) -> int | None:
        """The integer a name read by an index map holds in this evaluation, if it is one."""
        found = self.model.index.lookup(name, scope)
        if found is None:
            return None
        owner, bindings = found
        if any(b.kind is BindingKind.PARAM for b in bindings) and owner.node is not self.site.scope.node:
            return None
        if owner.node is self.site.scope.node:
            value = self.summary.get(name, UNKNOWN)
        else:
            value = self.model.interpreter.evaluation(owner).summary.get(name, UNKNOWN)
        if isinstance(value, Const) and type(value.value) is int:
            return value.value
        return None

    def call_text(self) -> str:
        """How this evaluation came about, for messages: empty, or ``when `f` is called at line N``."""
        if self.via is None:
            return ""
        name = self.model.segment(self.via.func)
        return f" (when `{name}` is called on line {self.via.lineno})"


def _informative(value: Value) -> bool:
    """Whether a call-site argument tells more than the function's own evaluation: an array of known
    shape, or a tuple of integers (a shape or block passed in)."""
    if isinstance(value, Array | ShapeDtype):
        return value.shape is not None
    return (
        isinstance(value, Seq)
        and bool(value.items)
        and all(isinstance(item, Const) and type(item.value) is int for item in value.items)
    )


def _traced(value: Value) -> Value:
    """An argument as the function sees it: a ``ShapeDtypeStruct`` passed to ``lower``/``export`` is an array."""
    if isinstance(value, ShapeDtype):
        return Array(value.shape, value.dtype, traced=True)
    return value


def _element(expr: ast.expr | None, position: int) -> ast.expr | None:
    """Entry ``position`` of a list or tuple literal; a list comprehension, which picks every entry, itself;
    else ``None``."""
    if isinstance(expr, ast.List | ast.Tuple) and not any(isinstance(e, ast.Starred) for e in expr.elts):
        return expr.elts[position] if position < len(expr.elts) else None
    if isinstance(expr, ast.ListComp):
        return expr
    return None


def _parent(root: ast.AST, node: ast.AST) -> ast.AST | None:
    """The node whose child ``node`` is, searching under ``root``."""
    for candidate in ast.walk(root):
        for child in ast.iter_child_nodes(candidate):
            if child is node:
                return candidate
    return None


def _shape_dtype(value: Value) -> tuple[tuple[Dim, ...] | None, str | None]:
    if isinstance(value, Array | ShapeDtype):
        return value.shape, value.dtype
    return None, None


class PallasSite:
    """One ``pallas_call`` expression and where its operands are passed.

    Args:
        model: The module's model.
        node: The ``pallas_call(…)`` call.
        scope: The scope it is in.
    """

    def __init__(self, model: PallasModel, node: ast.Call, scope: Scope) -> None:
        self.model = model
        self.node = node
        self.scope = scope.enclosing_function() or model.index.module_scope

    @functools.cached_property
    def mutated_names(self) -> frozenset[str]:
        """Names the function changes in place: ``x.append(…)`` and the like, ``x[i] = …``, ``del x[i]``."""
        found: set[str] = set()
        body = (
            self.scope.node.body
            if isinstance(self.scope.node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef)
            else []
        )
        stack: list[ast.AST] = list(body)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
                continue
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.attr in _MUTATORS
            ):
                found.add(node.func.value.id)
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign | ast.Delete):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            found.update(t.value.id for t in targets if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name))
            stack.extend(ast.iter_child_nodes(node))
        return frozenset(found)

    def contains(self, node: ast.AST) -> bool:
        """Whether ``node`` is part of the ``pallas_call(…)`` expression."""
        return any(child is node for child in ast.walk(self.node))

    @functools.cached_property
    def invocation(self) -> ast.Call | None:
        """``pallas_call(…)(x, y)``, or the call of the name it is assigned to in the same function."""
        parent = _parent(self.scope.node, self.node)
        if isinstance(parent, ast.Call) and parent.func is self.node:
            return parent
        assigned = isinstance(parent, ast.Assign) and len(parent.targets) == 1
        if not (assigned and isinstance(parent.targets[0], ast.Name)):  # type: ignore[union-attr]
            return None
        own = self.model.interpreter.evaluation(self.scope).values
        for node, scope in self.model.index.nodes.get(ast.Call, ()):
            function = scope.enclosing_function() or self.model.index.module_scope
            if function is not self.scope or not isinstance(node, ast.Call):
                continue
            value = own.get(id(node.func))
            if isinstance(value, PallasCallValue) and value.node is self.node:
                return node
        return None

    @functools.cached_property
    def instances(self) -> list[PallasInstance]:
        """The call with the function's own values, then once per call of the function in this file."""
        interpreter = self.model.interpreter
        own = interpreter.evaluation(self.scope)
        found = [PallasInstance(self, own.values, own.summary, None)]
        function = self.scope.node
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            return found
        for call, bindings in self._call_sites(function)[:_MAX_CALL_SITES]:
            evaluation = interpreter.evaluation_with(self.scope, bindings)
            found.append(PallasInstance(self, evaluation.values, evaluation.summary, call))
        return found

    def _call_sites(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[ast.Call, dict[str, Value]]]:
        """Calls of ``function`` in the module with the values they bind to its parameters.

        Direct calls count, and so do the ways code calls a jitted function without running it:
        ``jax.jit(f)(x)``, ``jax.jit(f).lower(x)``, ``jax.export.export(jax.jit(f), …)(x)`` and
        ``jax.eval_shape(f, x)``.
        """
        index = self.model.index
        interpreter = self.model.interpreter
        sites = []
        params = positional_params(function)
        args = function.args
        defaults = dict(zip(params[len(params) - len(args.defaults) :], args.defaults, strict=True))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None})
        parent_scope = self.scope.parent or index.module_scope
        for node, scope in index.nodes.get(ast.Call, ()):
            if not isinstance(node, ast.Call):
                continue
            passed = self._passed(node, scope, function)
            if passed is None:
                continue
            positional, keywords = passed
            if any(isinstance(arg, ast.Starred) for arg in positional) or any(k.arg is None for k in keywords):
                continue
            bindings: dict[str, Value] = {}
            for name, default in defaults.items():
                bindings[name] = interpreter.value_of(default, parent_scope)
            for name, arg in zip(params, positional, strict=False):
                bindings[name] = _traced(interpreter.value_of(arg, scope))
            for keyword in keywords:
                assert keyword.arg is not None
                bindings[keyword.arg] = _traced(interpreter.value_of(keyword.value, scope))
            if any(_informative(v) for v in bindings.values()):
                sites.append((node, bindings))
        return sites

    def _passed(
        self, call: ast.Call, scope: Scope, function: FunctionNode
    ) -> tuple[list[ast.expr], list[ast.keyword]] | None:
        """The arguments ``call`` passes to ``function``, if it calls it (see :meth:`_call_sites`)."""
        index = self.model.index

        def names_function(expr: ast.expr) -> bool:
            return isinstance(expr, ast.Name) and index.local_function(expr.id, scope) is function

        def jitted(expr: ast.expr) -> bool:
            return (
                isinstance(expr, ast.Call)
                and index.qualname(expr.func, scope) == "jax.jit"
                and bool(expr.args)
                and names_function(expr.args[0])
            )

        target = call.func
        if names_function(target) or jitted(target):
            return list(call.args), list(call.keywords)
        if isinstance(target, ast.Attribute) and target.attr == "lower" and jitted(target.value):
            return list(call.args), list(call.keywords)
        if (
            isinstance(target, ast.Call)
            and index.qualname(target.func, scope) == "jax.export.export"
            and target.args
            and jitted(target.args[0])
        ):
            return list(call.args), list(call.keywords)
        if index.qualname(call.func, scope) == "jax.eval_shape" and call.args and names_function(call.args[0]):
            return list(call.args[1:]), list(call.keywords)
        return None


class PallasModel:
    """The ``pallas_call`` sites of one module.

    Args:
        index: The module's scopes and names.
        interpreter: Its abstract interpreter.
        source_text: The module's text (for quoting operands).
        tpu: The TPU generation VMEM checks assume.
        target: The configured target (``tpu``/``gpu``), if any.
    """

    def __init__(
        self, index: ModuleIndex, interpreter: Interpreter, source_text: str, tpu: str, target: str | None
    ) -> None:
        self.index = index
        self.interpreter = interpreter
        self.text = source_text
        self.tpu = tpu if tpu in TPUS else DEFAULT_TPU
        self.target = target
        self.imports_pallas = index.imports("jax.experimental.pallas", "jax._src.pallas")
        self.imports_tpu = index.imports(*_TPU_MODULES)
        self.imports_gpu = index.imports(*_GPU_MODULES)
        self.sites: dict[int, PallasSite] = {}
        if self.imports_pallas:
            for node, scope in index.nodes.get(ast.Call, ()):
                if isinstance(node, ast.Call) and short_name(index.qualname(node.func, scope) or "") == PALLAS_CALL:
                    self.sites[id(node)] = PallasSite(self, node, scope)

    def segment(self, node: ast.AST) -> str:
        """The source text of a node, on one line."""
        text = self.source.segment(self.source.node_range(node)) if hasattr(node, "end_lineno") else ""
        return " ".join((text or ast.unparse(node)).split())

    @functools.cached_property
    def source(self) -> SourceText:
        """The module's text with a line-offset table, so a segment costs its own length, not the file's."""
        return SourceText(self.text)

    def site_at(self, node: ast.AST) -> PallasSite | None:
        """The ``pallas_call`` site ``node`` is, if any."""
        return self.sites.get(id(node))

    def __iter__(self) -> Iterator[PallasSite]:
        return iter(self.sites.values())


def pallas_model(
    index: ModuleIndex, interpreter: Interpreter, source_text: str, tpu: str | None = None, target: str | None = None
) -> PallasModel:
    """The Pallas model of the module ``index`` describes for one TPU generation and target, built once per check."""
    tpu = tpu or DEFAULT_TPU
    return index.derived(
        f"pallas:{tpu}:{target}", lambda owner: PallasModel(owner, interpreter, source_text, tpu, target)
    )
