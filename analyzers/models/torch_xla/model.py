"""What a torch_xla training loop looks like to the analyzer: XLA values, step loops and sync points.

On an XLA device every tensor operation is recorded into a lazy graph that runs only at a sync
point. The TX rules need three things from a file, and this module computes them once per file:

1. **Facts** about values (:class:`Fact`): which names hold an XLA device, a tensor on it, a module
   moved to it, an optimizer over its parameters, a device loader, a host ``DataLoader``, or a
   Python number (and which numbers). A small abstract interpreter walks every function in
   statement order (``if`` branches joined, loop bodies run twice and joined with the state before
   the loop). Parameters take the join of what every call site in the file passes; free
   variables take the value their enclosing function or module ends with. Anything it cannot
   follow has no fact, and the rules stay silent on it.
2. **Step loops** (:class:`StepLoop`): the innermost ``for``/``while`` loop whose body runs an
   optimizer step on XLA parameters (``optimizer.step()``, ``xm.optimizer_step``), directly or
   through local functions it calls. A loop that only runs ``backward()`` (gradient accumulation)
   is not a step: the step, and its sync, are around it.
3. **Sync points** in each step loop (``torch_xla.sync()``, ``xm.mark_step()``,
   ``with torch_xla.step():``, iterating a device loader, ``xm.optimizer_step(..., barrier=True)``,
   a ``torch_xla.compile``'d function), and every node that runs once per step, with whether it
   sits under an ``if step % N == 0:`` guard. Callbacks given to ``xm.add_step_closure`` run after
   the step's graph and are not part of the step.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from xlalens.analyzers.knowledge import torch_xla as tx
from xlalens.analyzers.semantics.names import BindingKind, ModuleIndex, Scope

_MAX_NUMBERS = 8
_ROUNDS = 4
_FunctionDef = ast.FunctionDef | ast.AsyncFunctionDef
_Loop = ast.For | ast.AsyncFor | ast.While


class Kind(enum.Enum):
    """What a value is, as far as the lazy graph is concerned."""

    DEVICE = "an XLA device"
    TENSOR = "a tensor on an XLA device"
    ON_DEVICE = "a tensor or module moved to an XLA device"
    MODULE = "a module on an XLA device"
    TORCH_MODULE = "a torch.nn module"
    PARAMS = "parameters on an XLA device"
    OPTIMIZER = "an optimizer"
    DEVICE_LOADER = "a device loader"
    PARALLEL_LOADER = "a parallel loader"
    DATA_LOADER = "a DataLoader"
    HOST_BATCH = "a batch on the host"
    NUMBER = "a Python number"
    SEQ = "a tuple or list"
    RANGE = "a range"
    ENUMERATE = "an enumerate object"
    ZIP = "a zip object"
    COMPILED = "a torch_xla.compile function"
    PLATEAU_SCHEDULER = "a ReduceLROnPlateau scheduler"


@dataclass(frozen=True, slots=True)
class Fact:
    """One abstract value.

    Attributes:
        kind: What the value is.
        boolean: For tensors: a boolean mask.
        certain: For tensors: certainly a tensor, not a model output that may be a container.
        numbers: For numbers: every value it may hold.
        items: For sequences, ``enumerate`` and ``zip``: the items (or the wrapped iterables).
        loaders: For host loaders and what wraps them: the ``DataLoader(...)`` calls whose last
            batch may be short.
        xla: For optimizers: whether its parameters are on an XLA device.
        bound: For ranges: the end of ``range(end)`` or ``range(start, end)`` when it is one known number.
        origin: For instances of a class of this file (``self`` in its methods, ``Trainer(...)``,
            a model built from a local ``nn.Module`` class): the class, whose attributes
            (``self.model = ...``) and methods the analysis follows.
    """

    kind: Kind
    boolean: bool = False
    certain: bool = True
    numbers: frozenset[float] = frozenset()
    items: tuple[Fact | None, ...] = ()
    loaders: frozenset[ast.Call] = frozenset()
    xla: bool = False
    origin: ast.ClassDef | None = None
    bound: float | None = None

    @property
    def is_xla(self) -> bool:
        """A tensor (or something that may be one) on an XLA device."""
        return self.kind in (Kind.TENSOR, Kind.ON_DEVICE)


def tensor(boolean: bool = False, certain: bool = True) -> Fact:
    """A tensor on an XLA device."""
    return Fact(Kind.TENSOR, boolean=boolean, certain=certain)


def join(a: Fact | None, b: Fact | None) -> Fact | None:
    """The least fact true of both ``a`` and ``b`` (None when they disagree).

    Examples:
        >>> one, half = Fact(Kind.NUMBER, numbers=frozenset({1.0})), Fact(Kind.NUMBER, numbers=frozenset({0.5}))
        >>> sorted(join(one, half).numbers)
        [0.5, 1.0]
        >>> join(tensor(), None) is None
        True
    """
    if a is None or b is None:
        return None
    if a == b:
        return a
    if a.kind is not b.kind:
        return None
    if a.kind is Kind.NUMBER:
        numbers = a.numbers | b.numbers
        return Fact(Kind.NUMBER, numbers=numbers) if len(numbers) <= _MAX_NUMBERS else None
    if a.kind is Kind.SEQ and not (a.certain and b.certain and len(a.items) == len(b.items)):
        # Lists of different or unknown lengths: one of unknown length whose items are any of theirs.
        return Fact(Kind.SEQ, certain=False, items=(element(a) if a.items else None,), loaders=a.loaders | b.loaders)
    if a.kind in (Kind.SEQ, Kind.ENUMERATE, Kind.ZIP):
        if len(a.items) != len(b.items):
            return None
        items = tuple(join(x, y) for x, y in zip(a.items, b.items, strict=True))
        return Fact(a.kind, items=items, loaders=a.loaders | b.loaders)
    return Fact(
        a.kind,
        boolean=a.boolean and b.boolean,
        certain=a.certain and b.certain,
        loaders=a.loaders | b.loaders,
        xla=a.xla and b.xla,
        origin=a.origin if a.origin is b.origin else None,
    )


def sequence_of(item: Fact | None) -> Fact:
    """A list of unknown length whose items are all ``item`` (a comprehension, ``[batch] * n``)."""
    return Fact(Kind.SEQ, certain=False, items=(item,))


def element(fact: Fact | None) -> Fact | None:
    """The fact of one item produced by iterating over ``fact``."""
    if fact is None:
        return None
    kind = fact.kind
    if kind is Kind.DEVICE_LOADER:
        return tensor(certain=False)  # a batch: a tensor, or a tuple/dict of tensors
    if kind is Kind.DATA_LOADER:
        return Fact(Kind.HOST_BATCH)
    if kind in (Kind.TENSOR, Kind.HOST_BATCH):
        return fact if kind is Kind.HOST_BATCH else tensor()
    if kind is Kind.ENUMERATE:
        return Fact(Kind.SEQ, items=(_numbers(STEP_SAMPLES), element(fact.items[0])))
    if kind is Kind.RANGE:
        return _numbers(n for n in STEP_SAMPLES if n < fact.bound) if fact.bound is not None else _numbers(STEP_SAMPLES)
    if kind is Kind.ZIP:
        return Fact(Kind.SEQ, items=tuple(element(item) for item in fact.items))
    if kind is Kind.SEQ and fact.items:
        joined = fact.items[0]
        for item in fact.items[1:]:
            joined = join(joined, item)
        return joined
    return None


def unpack(fact: Fact | None, count: int) -> list[Fact | None]:
    """The facts of ``count`` targets that unpack ``fact``."""
    if fact is None:
        return [None] * count
    if fact.kind is Kind.SEQ and fact.certain and len(fact.items) == count:
        return list(fact.items)
    if fact.kind is Kind.TENSOR:
        return [tensor()] * count
    if fact.kind is Kind.HOST_BATCH:
        return [fact] * count
    return [None] * count


def loaders_of(fact: Fact | None) -> frozenset[ast.Call]:
    """The ragged ``DataLoader(...)`` calls behind an iterable."""
    if fact is None:
        return frozenset()
    found = set(fact.loaders)
    for item in fact.items:
        found |= loaders_of(item)
    return frozenset(found)


def syncs_on_iteration(fact: Fact | None) -> bool:
    """Whether iterating over ``fact`` syncs once per item (a device loader, maybe wrapped)."""
    if fact is None:
        return False
    if fact.kind is Kind.DEVICE_LOADER:
        return True
    return fact.kind in (Kind.ENUMERATE, Kind.ZIP) and any(syncs_on_iteration(i) for i in fact.items)


def known_not_to_sync(fact: Fact | None) -> bool:
    """Whether iterating over ``fact`` certainly does not sync (a range, a host loader, a literal list)."""
    if fact is None:
        return False
    if fact.kind in (Kind.RANGE, Kind.DATA_LOADER, Kind.SEQ):
        return True
    if fact.kind in (Kind.ENUMERATE, Kind.ZIP):
        return all(known_not_to_sync(i) for i in fact.items)
    return False


def _parameters_on_device(fact: Fact | None) -> bool:
    """Parameters of a model on the device, or a list built from them (``[*a.parameters(), *b.parameters()]``)."""
    if fact is None:
        return False
    return fact.kind is Kind.PARAMS or (fact.kind is Kind.SEQ and any(_parameters_on_device(i) for i in fact.items))


def _holds_xla(fact: Fact | None) -> bool:
    """An XLA tensor, or a tuple or list holding one (``torch.cat([a, b])``)."""
    if fact is None:
        return False
    return fact.is_xla or (fact.kind is Kind.SEQ and any(_holds_xla(item) for item in fact.items))


_OPERATIONS: dict[type[ast.operator], object] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: float(a // b),
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: float(a**b),
}


def _numbers(values: Iterable[float]) -> Fact | None:
    found = frozenset(values)
    return Fact(Kind.NUMBER, numbers=found) if found and len(found) <= _MAX_NUMBERS else None


def _arithmetic(op: ast.operator, left: frozenset[float], right: frozenset[float]) -> Fact | None:
    """The numbers ``left op right`` may be.

    Only when one side is a single number: with two sets the values of the two sides may be tied
    (both computed from the step counter), and their cross product would list values never taken.

    Examples:
        >>> sorted(_arithmetic(ast.Div(), frozenset({0.0, 1.0, 2.0}), frozenset({2.0})).numbers)
        [0.0, 0.5, 1.0]
        >>> _arithmetic(ast.Add(), frozenset({0.0, 1.0}), frozenset({0.0, 1.0})) is None
        True
    """
    operation = _OPERATIONS.get(type(op))
    if operation is None or (len(left) > 1 and len(right) > 1):
        return None
    try:
        return _numbers(float(operation(a, b)) for a in left for b in right)  # type: ignore[operator]
    except (ArithmeticError, ValueError, OverflowError):
        return None


STEP_SAMPLES: tuple[float, ...] = (0.0, 1.0, 2.0, 3.0, 10.0, 100.0, 1000.0, 100000.0)
"""Values a loop counter (``for step in range(n)``) is sampled at: the first steps, where schedules
start from 0 or 1, and later ones, where warm-ups and annealing have ended."""


def _number(value: object) -> Fact | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return Fact(Kind.NUMBER, numbers=frozenset({float(value)}))


def _const_int(node: ast.expr | None) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    """The value of keyword argument ``name`` of ``call``."""
    for item in call.keywords:
        if item.arg == name:
            return item.value
    return None


def method_class(scope: Scope) -> ast.ClassDef | None:
    """The class whose body defines the function of ``scope`` (None for functions outside classes)."""
    parent = scope.parent
    if isinstance(scope.node, _FunctionDef) and parent is not None and isinstance(parent.node, ast.ClassDef):
        return parent.node
    return None


def _self_name(function: _FunctionDef) -> str | None:
    """The name a method calls its instance: its first parameter, unless it is a static or class method."""
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Name) and decorator.id in ("staticmethod", "classmethod"):
            return None
    positional = [*function.args.posonlyargs, *function.args.args]
    return positional[0].arg if positional else None


def class_method(cls: ast.ClassDef, name: str) -> _FunctionDef | None:
    """The method ``name`` defined in the body of ``cls``.

    Examples:
        >>> cls = ast.parse("class T:\\n    def fit(self): pass").body[0]
        >>> class_method(cls, "fit").name, class_method(cls, "step")
        ('fit', None)
    """
    for statement in cls.body:
        if isinstance(statement, _FunctionDef) and statement.name == name:
            return statement
    return None


# -- the interpreter ---------------------------------------------------------------------------


class _Run:
    """One walk over one function (or the module body) in statement order."""

    def __init__(self, model: TorchXlaModel, scope: Scope, params: dict[str, Fact | None]) -> None:
        self.model = model
        self.index = model.index
        self.scope = scope
        self.env: dict[str, Fact | None] = dict(params)
        self.facts: dict[int, Fact | None] = {}
        self.returns: list[Fact | None] = []
        self.calls: list[tuple[ast.Call, Scope]] = []
        self.owner = method_class(scope)
        if self.owner is not None:
            receiver = _self_name(scope.node)  # type: ignore[arg-type]
            if receiver is not None:
                self.env[receiver] = Fact(Kind.TORCH_MODULE, certain=False, origin=self.owner)

    # statements

    def block(self, statements: Iterable[ast.stmt]) -> None:
        for statement in statements:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Assign):
            value = self.expr(node.value)
            for target in node.targets:
                self.bind(target, value)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.bind(node.target, self.expr(node.value))
        elif isinstance(node, ast.AugAssign):
            self.augmented(node)
        elif isinstance(node, ast.Expr):
            self.expression_statement(node.value)
        elif isinstance(node, ast.For | ast.AsyncFor):
            self.for_loop(node)
        elif isinstance(node, ast.While):
            self.loop(lambda: (self.expr(node.test), self.block(node.body)))
            self.block(node.orelse)
        elif isinstance(node, ast.If):
            self.expr(node.test)
            before = dict(self.env)
            self.block(node.body)
            after_body = self.env
            self.env = before
            self.block(node.orelse)
            self.env = self.join_env(after_body, self.env)
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                self.expr(item.context_expr)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, None)
            self.block(node.body)
        elif isinstance(node, ast.Try | ast.TryStar):
            self.try_statement(node)
        elif isinstance(node, ast.Return):
            self.returns.append(self.expr(node.value) if node.value is not None else None)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            compiled = any(self.model.qualname(d, self.scope) == tx.COMPILE for d in node.decorator_list)
            self.env[node.name] = Fact(Kind.COMPILED) if compiled else None
        elif isinstance(node, ast.ClassDef):
            self.env[node.name] = None
        elif isinstance(node, ast.Match):
            self.expr(node.subject)
            before = dict(self.env)
            merged: dict[str, Fact | None] | None = None
            for case in node.cases:
                self.env = dict(before)
                self.block(case.body)
                merged = self.env if merged is None else self.join_env(merged, self.env)
            self.env = self.join_env(before, merged) if merged is not None else before
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expr(child)

    def try_statement(self, node: ast.Try | ast.TryStar) -> None:
        before = dict(self.env)
        self.block(node.body)
        self.block(node.orelse)
        result = self.env
        for handler in node.handlers:
            self.env = self.join_env(before, result)
            if handler.name:
                self.env[handler.name] = None
            self.block(handler.body)
            result = self.join_env(result, self.env)
        self.env = result
        self.block(node.finalbody)

    def augmented(self, node: ast.AugAssign) -> None:
        target = node.target
        if isinstance(target, ast.Attribute):
            # `self.loss_scale /= 2`: the value the attribute had (from the previous walk), updated.
            receiver = self.expr(target.value)
            origin = receiver.origin if receiver is not None else None
            if origin is not None and not self.model.knows_attribute(origin, target.attr):
                return  # the first walk: what it held is not known yet, so this says nothing
            current = self.model.attribute_fact(origin, target.attr) if origin is not None else None
        else:
            current = self.expr(target)
        value = self.binop(node.op, current, self.expr(node.value))
        if isinstance(node.target, ast.Name):
            self.env[node.target.id] = value
        elif isinstance(node.target, ast.Attribute):
            self.bind(node.target, value)

    def expression_statement(self, value: ast.expr) -> None:
        fact = self.expr(value)
        del fact
        # `model.to(device)` as a statement moves a module in place (it is a no-op on a tensor).
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "to"
            and isinstance(value.func.value, ast.Name)
            and self.device_argument(value)
        ):
            moved = self.env.get(value.func.value.id)
            self.env[value.func.value.id] = Fact(Kind.MODULE, origin=moved.origin if moved is not None else None)

    def for_loop(self, node: ast.For | ast.AsyncFor) -> None:
        items = element(self.expr(node.iter))

        def once() -> None:
            self.bind(node.target, items)
            self.block(node.body)

        self.loop(once)
        self.block(node.orelse)

    def loop(self, run_once: object) -> None:
        assert callable(run_once)
        before = dict(self.env)
        run_once()
        self.env = self.join_env(before, self.env)
        run_once()
        self.env = self.join_env(before, self.env)

    @staticmethod
    def join_env(a: dict[str, Fact | None], b: dict[str, Fact | None]) -> dict[str, Fact | None]:
        return {name: join(a.get(name), b.get(name)) for name in a.keys() | b.keys()}

    def bind(self, target: ast.expr, value: Fact | None) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = value
            self.record(target, value)
        elif isinstance(target, ast.Tuple | ast.List):
            if any(isinstance(e, ast.Starred) for e in target.elts):
                for elt in target.elts:
                    self.bind(elt.value if isinstance(elt, ast.Starred) else elt, None)
                return
            for elt, item in zip(target.elts, unpack(value, len(target.elts)), strict=True):
                self.bind(elt, item)
        elif isinstance(target, ast.Attribute):
            receiver = self.expr(target.value)
            if receiver is not None and receiver.origin is not None:
                self.model.collect_attribute(receiver.origin, target.attr, value)
        else:
            self.expr(target)

    # expressions

    def record(self, node: ast.AST, fact: Fact | None) -> Fact | None:
        key = id(node)
        if key in self.facts:
            fact = join(self.facts[key], fact)
        self.facts[key] = fact
        return fact

    def expr(self, node: ast.expr) -> Fact | None:
        fact = self.evaluate(node)
        self.record(node, fact)
        return fact

    def evaluate(self, node: ast.expr) -> Fact | None:
        if isinstance(node, ast.Name):
            return self.lookup(node.id)
        if isinstance(node, ast.Constant):
            return _number(node.value)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.expr(node.left), self.expr(node.right))
        if isinstance(node, ast.UnaryOp):
            return self.unary(node)
        if isinstance(node, ast.Compare):
            operands = [self.expr(node.left), *(self.expr(c) for c in node.comparators)]
            return tensor(boolean=True) if any(f is not None and f.is_xla for f in operands) else None
        if isinstance(node, ast.IfExp):
            self.expr(node.test)
            return join(self.expr(node.body), self.expr(node.orelse))
        if isinstance(node, ast.Tuple | ast.List):
            return Fact(Kind.SEQ, items=tuple(self.expr(e) for e in node.elts))
        if isinstance(node, ast.NamedExpr):
            value = self.expr(node.value)
            self.bind(node.target, value)
            return value
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            item = self.comprehension(node)
            return None if isinstance(node, ast.DictComp) else sequence_of(item)
        if isinstance(node, ast.Lambda):
            return None
        if isinstance(node, ast.Starred):
            return self.expr(node.value)
        if isinstance(node, ast.BoolOp):
            values = [self.expr(v) for v in node.values]
            # `a and b` is a falsy `a` or else `b`: a condition on it reads `b` when `b` is a tensor.
            return values[-1] if values[-1] is not None and values[-1].is_xla else None
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child)
        return None

    def comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> Fact | None:
        """Walk a comprehension; the fact of the items it produces."""
        saved = dict(self.env)
        for generator in node.generators:
            self.bind(generator.target, element(self.expr(generator.iter)))
            for condition in generator.ifs:
                self.expr(condition)
        if isinstance(node, ast.DictComp):
            self.expr(node.key)
            item = self.expr(node.value)
        else:
            item = self.expr(node.elt)
        self.env = saved
        return item

    def lookup(self, name: str) -> Fact | None:
        if name in self.env:
            return self.env[name]
        if name in self.scope.bindings:
            return None  # bound here, but not on the path walked so far
        return self.model.free_fact(name, self.scope)

    def unary(self, node: ast.UnaryOp) -> Fact | None:
        operand = self.expr(node.operand)
        if operand is None or isinstance(node.op, ast.Not):
            return None
        if operand.is_xla:
            return tensor(boolean=operand.boolean and isinstance(node.op, ast.Invert))
        if operand.kind is Kind.NUMBER and isinstance(node.op, ast.USub):
            return Fact(Kind.NUMBER, numbers=frozenset(-n for n in operand.numbers))
        if operand.kind is Kind.NUMBER and isinstance(node.op, ast.UAdd):
            return operand
        return None

    @staticmethod
    def binop(op: ast.operator, left: Fact | None, right: Fact | None) -> Fact | None:
        if (left is not None and left.is_xla) or (right is not None and right.is_xla):
            logical = isinstance(op, ast.BitAnd | ast.BitOr | ast.BitXor)
            both_boolean = all(f is not None and f.boolean for f in (left, right))
            return tensor(boolean=logical and both_boolean)
        if left is not None and right is not None and left.kind is right.kind is Kind.NUMBER:
            return _arithmetic(op, left.numbers, right.numbers)
        lists = [f for f in (left, right) if f is not None and f.kind is Kind.SEQ]
        if lists and isinstance(op, ast.Add | ast.Mult):
            # `[batch] * steps`, `train + extra`: a list of unknown length with the same items.
            item = element(lists[0])
            for other in lists[1:]:
                item = join(item, element(other))
            return sequence_of(item)
        return None

    def attribute(self, node: ast.Attribute) -> Fact | None:
        receiver = self.expr(node.value)
        if receiver is not None and receiver.origin is not None and isinstance(node.ctx, ast.Load):
            found = self.model.attribute_fact(receiver.origin, node.attr)
            if found is not None and found.kind is Kind.TORCH_MODULE and receiver.kind is Kind.MODULE:
                return Fact(Kind.MODULE, origin=found.origin)  # a submodule of a model on the device
            return found
        if receiver is None or not receiver.is_xla:
            return None
        if node.attr in tx.METADATA_ATTRIBUTES:
            return None
        if receiver.kind is Kind.TENSOR and receiver.certain:
            return tensor() if node.attr in ("grad", "T", "mT", "H", "data", "real", "imag") else None
        return tensor(certain=False)  # a field of a model output (`out.logits`)

    def subscript(self, node: ast.Subscript) -> Fact | None:
        receiver = self.expr(node.value)
        index = self.expr(node.slice)
        del index
        if not isinstance(node.ctx, ast.Load) or receiver is None:
            return None
        if receiver.is_xla:
            return tensor()
        if receiver.kind is Kind.HOST_BATCH:
            return receiver
        if receiver.kind is Kind.SEQ and not receiver.certain:
            return element(receiver)
        if receiver.kind is Kind.SEQ:
            position = _const_int(node.slice)
            if position is not None and -len(receiver.items) <= position < len(receiver.items):
                return receiver.items[position]
        return None

    # calls

    def device_argument(self, node: ast.Call) -> bool:
        """Whether ``node`` names an XLA device among its arguments (as ``.to(device)`` does)."""
        candidates = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "device")]
        if any(
            isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value.startswith("xla") for c in candidates
        ):
            return True  # `.to("xla")`, `.to("xla:0")`
        return any((fact := self.facts.get(id(c))) is not None and fact.kind is Kind.DEVICE for c in candidates)

    def call(self, node: ast.Call) -> Fact | None:
        func = node.func
        callee = self.expr(func.value) if isinstance(func, ast.Attribute) else None
        args = [self.expr(a) for a in node.args]
        keywords = {k.arg: self.expr(k.value) for k in node.keywords}
        self.calls.append((node, self.scope))
        qualname = self.model.qualname(func, self.scope)
        if qualname is not None:
            return self.library_call(qualname, node, args, keywords)
        if isinstance(func, ast.Attribute):
            if callee is not None and callee.origin is not None:
                method = class_method(callee.origin, func.attr)
                if method is not None:
                    return self.model.return_fact(method)
                if func.attr not in ("to", "parameters", "named_parameters"):
                    return self.call_value(self.attribute(func), args)
            return self.method_call(func.attr, callee, node, args, keywords)
        if not isinstance(func, ast.Name):
            self.expr(func)
            return None  # `make_step()(x)`, `steps[i](x)`: nothing the analysis follows
        target = self.expr(func)
        local = self.index.local_function(func.id, self.scope)
        if local is not None and isinstance(local, _FunctionDef):
            return self.model.return_fact(local)
        found = self.call_value(target, args)
        if found is not None:
            return found
        cls = self.model.local_class_node(func.id, self.scope)
        if cls is not None:
            return Fact(Kind.TORCH_MODULE, certain=False, origin=cls)
        return None

    def call_value(self, target: Fact | None, args: list[Fact | None]) -> Fact | None:
        """What calling ``target`` (a module, a loss) returns: ``forward``'s result when the class is local."""
        if target is None:
            return None
        forward = class_method(target.origin, "forward") if target.origin is not None else None
        returned = self.model.return_fact(forward) if forward is not None else None
        if target.kind in (Kind.MODULE, Kind.ON_DEVICE):
            return returned if returned is not None and returned.is_xla else tensor(certain=False)
        if target.kind is Kind.TORCH_MODULE and any(_holds_xla(f) for f in args):
            return returned if returned is not None and returned.is_xla else tensor(certain=target.certain)
        return None

    def assigned_value(self, name: str) -> ast.expr | None:
        """The value of the one ``name = value`` statement that binds ``name`` here, if that is how it is bound."""
        assigned = self.index.single_assignment(name, self.scope)
        return assigned[0].value if assigned is not None else None

    @staticmethod
    def extremum(smallest: bool, args: list[Fact | None]) -> Fact | None:
        """``min(a, b)``/``max(a, b)`` of Python numbers, one of them a single number."""
        if not all(a is not None and a.kind is Kind.NUMBER for a in args):
            return None
        sets = [a.numbers for a in args if a is not None]
        if sum(len(values) > 1 for values in sets) > 1:
            return None
        pick = min if smallest else max
        fixed = [next(iter(values)) for values in sets if len(values) == 1]
        varying = next((values for values in sets if len(values) > 1), frozenset({pick(fixed)}))
        return _numbers(pick([v, *fixed]) for v in varying)

    def local_class(self, name: str) -> bool:
        found = self.index.lookup(name, self.scope)
        return found is not None and all(b.kind is BindingKind.CLASS for b in found[1])

    def library_call(
        self, qualname: str, node: ast.Call, args: list[Fact | None], keywords: dict[str | None, Fact | None]
    ) -> Fact | None:
        if qualname in tx.DEVICE_FUNCTIONS:
            return Fact(Kind.DEVICE)
        if qualname == "torch.device":
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.startswith("xla"):
                return Fact(Kind.DEVICE)
            return None
        if qualname in tx.DEVICE_LOADERS:
            return Fact(Kind.DEVICE_LOADER, loaders=loaders_of(args[0] if args else None))
        if qualname == tx.PARALLEL_LOADER:
            return Fact(Kind.PARALLEL_LOADER, loaders=loaders_of(args[0] if args else None))
        if qualname in tx.DATA_LOADERS:
            ragged = ragged_loader(node, self.assigned_value)
            return Fact(Kind.DATA_LOADER, loaders=frozenset({node}) if ragged else frozenset())
        if qualname == tx.COMPILE:
            return Fact(Kind.COMPILED)
        if qualname in tx.TRANSPARENT_ITERATORS:
            return args[0] if args else None
        if qualname == "builtins.next":
            return element(args[0] if args else None)
        if qualname == "builtins.range":
            end = args[1] if len(args) > 1 else (args[0] if args else None)
            known = end is not None and end.kind is Kind.NUMBER and len(end.numbers) == 1
            return Fact(Kind.RANGE, bound=next(iter(end.numbers)) if known else None)  # type: ignore[union-attr]
        if qualname in ("builtins.min", "builtins.max") and len(args) >= 2 and not node.keywords:
            return self.extremum(qualname == "builtins.min", args)
        if qualname == "builtins.enumerate":
            return Fact(Kind.ENUMERATE, items=(args[0] if args else None,))
        if qualname == "builtins.zip":
            return Fact(Kind.ZIP, items=tuple(args))
        if qualname.startswith("torch.optim.") and not qualname.startswith("torch.optim.lr_scheduler"):
            params = args[0] if args else keywords.get("params")
            return Fact(Kind.OPTIMIZER, xla=_parameters_on_device(params))
        if qualname == tx.PLATEAU_SCHEDULER:
            return Fact(Kind.PLATEAU_SCHEDULER)
        if qualname in tx.GRADIENT_NORM_FUNCTIONS:
            return tensor() if _parameters_on_device(args[0] if args else keywords.get("parameters")) else None
        if not qualname.startswith("torch."):
            return None
        if qualname.startswith(tx.NOT_TENSOR_PREFIXES):
            return None
        name = qualname.rsplit(".", 1)[-1]
        if qualname.startswith("torch.nn.") and name[:1].isupper():
            # A loss returns one tensor; other modules (an LSTM) may return tuples.
            return Fact(Kind.TORCH_MODULE, certain=name.endswith("Loss"))
        device = keywords.get("device")
        on_xla = (device is not None and device.kind is Kind.DEVICE) or any(
            _holds_xla(f) for f in [*args, *keywords.values()]
        )
        if not on_xla:
            return None
        if qualname in tx.SCALAR_FUNCTIONS or name not in tx.CONTAINER_METHODS:
            return tensor(boolean=name in tx.BOOLEAN_METHODS)
        return tensor(certain=False)

    def method_call(
        self,
        method: str,
        receiver: Fact | None,
        node: ast.Call,
        args: list[Fact | None],
        keywords: dict[str | None, Fact | None],
    ) -> Fact | None:
        if method == "to" and self.device_argument(node):
            if receiver is not None and receiver.kind in (Kind.TORCH_MODULE, Kind.MODULE):
                return Fact(Kind.MODULE, origin=receiver.origin)
            if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Call):
                inner = node.func.value.func
                if isinstance(inner, ast.Name) and self.local_class(inner.id):
                    return Fact(Kind.MODULE)
            if receiver is not None and receiver.kind in (Kind.TENSOR, Kind.HOST_BATCH):
                return tensor(certain=receiver.kind is Kind.TENSOR and receiver.certain)
            return Fact(Kind.ON_DEVICE)
        if receiver is None:
            return None
        if receiver.kind is Kind.PARALLEL_LOADER and method == "per_device_loader":
            return Fact(Kind.DEVICE_LOADER, loaders=receiver.loaders)
        if method in ("parameters", "named_parameters") and receiver.kind in (Kind.MODULE, Kind.ON_DEVICE):
            return Fact(Kind.PARAMS)
        if not receiver.is_xla:
            return None
        if method in tx.HOST_READ_METHODS or method in tx.SHAPE_METHODS or method == "backward":
            return None
        if method == "to" and node.args and isinstance(node.args[0], ast.Constant):
            return None  # `.to("cpu")`
        if receiver.kind is Kind.ON_DEVICE and method in ("train", "eval", "zero_grad", "state_dict", "apply"):
            return None
        if method in tx.CONTAINER_METHODS and (node.args or node.keywords or method not in ("max", "min")):
            return tensor(certain=False)
        return tensor(boolean=method in tx.BOOLEAN_METHODS)


def ragged_loader(node: ast.Call, resolve: Callable[[str], ast.expr | None] = lambda name: None) -> bool:
    """Whether a ``DataLoader(...)`` may end with a short batch: batches of more than one, no ``drop_last=True``.

    Examples:
        >>> ragged_loader(ast.parse("DataLoader(ds, batch_size=8)").body[0].value)
        True
        >>> ragged_loader(ast.parse("DataLoader(ds, batch_size=8, drop_last=True)").body[0].value)
        False
        >>> ragged_loader(ast.parse("DataLoader(ds)").body[0].value)
        False
    """
    if keyword(node, "batch_sampler") is not None:
        return False  # the sampler decides the batch sizes
    drop_last = keyword(node, "drop_last")
    if drop_last is not None and not (isinstance(drop_last, ast.Constant) and drop_last.value is False):
        return False  # True, or a value the analysis cannot see
    batch = keyword(node, "batch_size")
    if batch is None and len(node.args) > 1:
        batch = node.args[1]
    if batch is None:
        return False  # the default batch size is 1: every batch has the same shape
    size = _const_int(batch)
    if isinstance(batch, ast.Constant) and batch.value is None:
        return False
    if size is not None and size <= 1:
        return False
    dataset = node.args[0] if node.args else keyword(node, "dataset")
    if isinstance(dataset, ast.Name):
        dataset = resolve(dataset.id) or dataset  # `dataset = TensorDataset(...)` a few lines above
    return size is None or dataset is None or not _rows_multiple_of(dataset, size)


def _rows_multiple_of(dataset: ast.expr, size: int) -> bool:
    """Whether ``TensorDataset(torch.randn(N, ...), ...)`` visibly has a multiple of ``size`` rows.

    Examples:
        >>> _rows_multiple_of(ast.parse("TensorDataset(torch.randn(8 * steps, 16))").body[0].value, 8)
        True
        >>> _rows_multiple_of(ast.parse("TensorDataset(torch.randn(20, 16))").body[0].value, 8)
        False
    """
    if not (isinstance(dataset, ast.Call) and dataset.args and isinstance(dataset.args[0], ast.Call)):
        return False
    if not (isinstance(dataset.func, ast.Name | ast.Attribute) and _last_name(dataset.func) == "TensorDataset"):
        return False
    factory = dataset.args[0]
    if _last_name(factory.func) not in ("randn", "rand", "zeros", "ones", "empty", "randint") or not factory.args:
        return False
    rows = factory.args[0] if _last_name(factory.func) != "randint" else factory.args[-1]
    if isinstance(rows, ast.Tuple | ast.List) and rows.elts:
        rows = rows.elts[0]
    return _multiple(rows, size)


def _multiple(expr: ast.expr, size: int) -> bool:
    value = _const_int(expr)
    if value is not None:
        return value % size == 0
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        return _multiple(expr.left, size) or _multiple(expr.right, size)
    return False


def _last_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


# -- step loops --------------------------------------------------------------------------------


class SyncKind(enum.Enum):
    """How a step loop syncs."""

    CALL = "a sync call"
    STEP_CONTEXT = "`with torch_xla.step()`"
    LOADER = "a device loader"
    BARRIER = "`xm.optimizer_step(..., barrier=True)`"
    COMPILED = "a `torch_xla.compile` function"


@dataclass(eq=False)
class StepLoop:
    """A loop that runs one training step per iteration.

    Attributes:
        node: The ``for`` or ``while`` statement.
        scope: The scope the loop is in.
        syncs: How the loop syncs, if it does (its body, nested loops and called functions included).
        opaque: Calls in the loop the analysis cannot see into that are handed XLA state, so a sync
            may hide in them.
        iterable: What the loop iterates over (None for ``while``).
    """

    node: _Loop
    scope: Scope
    syncs: list[SyncKind] = field(default_factory=list)
    opaque: list[ast.Call] = field(default_factory=list)
    iterable: Fact | None = None


@dataclass(frozen=True, slots=True)
class StepPlace:
    """Where a node runs once per training step.

    Attributes:
        loop: The step loop.
        guarded: Whether it runs only on some steps (under ``if step % N == 0:``).
        assigned_since_sync: For a statement of the loop body after an explicit sync of the same
            iteration, the names assigned since that sync (up to and including this statement);
            None before any sync. A tensor named outside it already holds its value.
    """

    loop: StepLoop
    guarded: bool
    assigned_since_sync: frozenset[str] | None = None


@dataclass
class _Events:
    """What one stretch of code does, for finding step loops."""

    optimizer_step: bool = False
    syncs: list[SyncKind] = field(default_factory=list)
    opaque: list[ast.Call] = field(default_factory=list)


class TorchXlaModel:
    """The torch_xla facts of one module; build it with :func:`model_for`."""

    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self.runs: dict[int, _Run] = {}
        self.step_loops: list[StepLoop] = []
        self.places: dict[int, StepPlace] = {}
        self._functions: dict[int, Scope] = {id(s.node): s for s in index.functions if isinstance(s.node, _FunctionDef)}
        self._returns: dict[int, Fact | None] = {}
        self._attributes: dict[tuple[int, str], Fact | None] = {}
        self._collected: dict[tuple[int, str], Fact | None] = {}
        self.enabled = any(
            (b.qualname or "").startswith("torch_xla")
            for scope in index.scopes.values()
            for bindings in scope.bindings.values()
            for b in bindings
            if b.kind is BindingKind.IMPORT
        )
        if self.enabled:
            self._analyze()
            self._find_step_loops()

    # facts

    def qualname(self, node: ast.AST, scope: Scope) -> str | None:
        """The imported name an expression refers to."""
        return self.index.qualname(node, scope)

    def fact(self, node: ast.AST, scope: Scope) -> Fact | None:
        """The fact the walk found for expression ``node`` in ``scope``, if any."""
        function = scope.enclosing_function()
        owner = function if function is not None else self.index.module_scope
        run = self.runs.get(id(owner.node))
        return run.facts.get(id(node)) if run is not None else None

    def free_fact(self, name: str, scope: Scope) -> Fact | None:
        """The value a free variable has: what its defining function or the module ends with."""
        parent = scope.parent
        while parent is not None and parent.is_class:
            parent = parent.parent
        if parent is None:
            return None
        found = self.index.lookup(name, parent)
        if found is None:
            return None
        owner, _ = found
        while owner.is_class and owner.parent is not None:
            owner = owner.parent
        run = self.runs.get(id(owner.node))
        return run.env.get(name) if run is not None else None

    def return_fact(self, function: ast.AST) -> Fact | None:
        """What a local function returns, from the last walk over it."""
        return self._returns.get(id(function))

    def collect_attribute(self, cls: ast.ClassDef, name: str, value: Fact | None) -> None:
        """Record ``instance.name = value`` for an instance of ``cls``: every assignment joined."""
        key = (id(cls), name)
        self._collected[key] = join(self._collected[key], value) if key in self._collected else value

    def knows_attribute(self, cls: ast.ClassDef, name: str) -> bool:
        """Whether the previous walk saw ``name`` assigned on an instance of ``cls``."""
        return (id(cls), name) in self._attributes

    def attribute_fact(self, cls: ast.ClassDef, name: str) -> Fact | None:
        """What attribute ``name`` of an instance of ``cls`` holds, from the previous walk over the file."""
        return self._attributes.get((id(cls), name))

    def local_class_node(self, name: str, scope: Scope) -> ast.ClassDef | None:
        """The class ``name`` refers to, when it is a single local ``class`` statement."""
        found = self.index.lookup(name, scope)
        if found is None or len(found[1]) != 1 or found[1][0].kind is not BindingKind.CLASS:
            return None
        node = found[1][0].node
        return node if isinstance(node, ast.ClassDef) else None

    def callee(self, call: ast.Call, scope: Scope) -> tuple[_FunctionDef, int] | None:
        """The local function a call runs, and how many leading parameters the call does not pass.

        A local function (0), a method through an instance of a local class (``self.step(x)``,
        ``trainer.fit(data)``: 1), a local class's ``__init__`` (``Trainer(model)``: 1), or the
        ``forward`` of a module built from a local class (``model(x)``: 1).
        """
        func = call.func
        if isinstance(func, ast.Name):
            function = self.index.local_function(func.id, scope)
            if isinstance(function, _FunctionDef) and id(function) in self._functions:
                return function, 0
            cls = self.local_class_node(func.id, scope)
            if cls is not None:
                init = class_method(cls, "__init__")
                return (init, 1) if init is not None else None
            target = self.fact(func, scope)
            if target is not None and target.origin is not None:
                forward = class_method(target.origin, "forward")
                return (forward, 1) if forward is not None else None
            return None
        if isinstance(func, ast.Attribute):
            receiver = self.fact(func.value, scope)
            if receiver is not None and receiver.origin is not None:
                method = class_method(receiver.origin, func.attr)
                if method is not None:
                    return method, 1
                target = self.fact(func, scope)
                if target is not None and target.origin is not None:
                    forward = class_method(target.origin, "forward")
                    return (forward, 1) if forward is not None else None
        return None

    def _analyze(self) -> None:
        params: dict[int, dict[str, Fact | None]] = {}
        for _ in range(_ROUNDS):
            self._collected = {}
            module_run = _Run(self, self.index.module_scope, {})
            self.runs[id(self.index.tree)] = module_run
            module_run.block(self.index.tree.body)
            for scope in self._functions.values():
                run = _Run(self, scope, params.get(id(scope.node), {}))
                self.runs[id(scope.node)] = run
                run.block(scope.node.body)  # type: ignore[attr-defined]
                returned = run.returns[0] if run.returns else None
                for fact in run.returns[1:]:
                    returned = join(returned, fact)
                self._returns[id(scope.node)] = returned
            new_params = self._call_site_params()
            if new_params == params and self._collected == self._attributes:
                break
            params = new_params
            self._attributes = self._collected

    def _call_site_params(self) -> dict[int, dict[str, Fact | None]]:
        """Parameter facts of each local function: the join over every call site in the file."""
        seen: dict[int, list[dict[str, Fact | None]]] = {}
        for run in self.runs.values():
            for call, scope in run.calls:
                found = self.callee(call, scope)
                if found is None or id(found[0]) not in self._functions:
                    continue
                function, skipped = found
                bound = self._bind_arguments(function, call, run, skipped)
                if bound is not None:
                    seen.setdefault(id(function), []).append(bound)
        result: dict[int, dict[str, Fact | None]] = {}
        for key, bindings in seen.items():
            function = self._functions[key].node
            assert isinstance(function, _FunctionDef)
            names = [a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)]
            merged: dict[str, Fact | None] = {}
            for name in names:
                value = bindings[0].get(name)
                for other in bindings[1:]:
                    value = join(value, other.get(name))
                if value is not None:
                    merged[name] = value
            result[key] = merged
        return result

    @staticmethod
    def _bind_arguments(
        function: _FunctionDef, call: ast.Call, run: _Run, skipped: int = 0
    ) -> dict[str, Fact | None] | None:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)][skipped:]
        if len(call.args) > len(positional):
            return None
        bound = {name: run.facts.get(id(arg)) for name, arg in zip(positional, call.args, strict=False)}
        for item in call.keywords:
            bound[item.arg or ""] = run.facts.get(id(item.value))
        arguments = function.args
        every = [*arguments.posonlyargs, *arguments.args]
        defaults = list(zip(every[len(every) - len(arguments.defaults) :], arguments.defaults, strict=True))
        defaults += [(a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d is not None]
        for parameter, default in defaults:
            if parameter.arg not in bound and isinstance(default, ast.Constant):
                bound[parameter.arg] = _number(default.value)  # not passed here: the literal default
        return bound

    # step loops

    def _find_step_loops(self) -> None:
        summaries: dict[int, _Events] = {}
        for run in self.runs.values():
            scope = run.scope
            for loop in _loops(scope.node):
                statements = [*loop.body, *([loop.test] if isinstance(loop, ast.While) else [])]
                summaries[id(loop)] = self._events(statements, scope, set(), in_callee=False)
        for run in self.runs.values():
            scope = run.scope
            for loop in _loops(scope.node):
                events = summaries[id(loop)]
                if not self._is_step_loop(loop, events, summaries):
                    continue
                iterable = self.fact(loop.iter, scope) if isinstance(loop, ast.For | ast.AsyncFor) else None
                step = StepLoop(loop, scope, list(events.syncs), list(events.opaque), iterable)
                if syncs_on_iteration(iterable):
                    step.syncs.append(SyncKind.LOADER)
                self.step_loops.append(step)
        for step in self.step_loops:
            self._mark_places(step)

    @staticmethod
    def _is_step_loop(loop: _Loop, events: _Events, summaries: dict[int, _Events]) -> bool:
        """The innermost loop that steps an optimizer."""
        return events.optimizer_step and not any(summaries[id(c)].optimizer_step for c in _loops_in(loop.body))

    def _events(self, statements: list, scope: Scope, visiting: set[int], *, in_callee: bool) -> _Events:
        """What ``statements`` do per run; in a called function, loops are left out (they are loops of their own)."""
        events = _Events()
        for node in _walk_step(statements, skip_loops=in_callee):
            if isinstance(node, ast.With | ast.AsyncWith):
                for item in node.items:
                    context = item.context_expr
                    if isinstance(context, ast.Call) and self.qualname(context.func, scope) == tx.STEP_CONTEXT:
                        events.syncs.append(SyncKind.STEP_CONTEXT)
            if isinstance(node, ast.Call):
                self._call_events(node, scope, events, visiting)
        return events

    def _call_events(self, node: ast.Call, scope: Scope, events: _Events, visiting: set[int]) -> None:
        qualname = self.qualname(node.func, scope)
        func = node.func
        if qualname in tx.SYNC_FUNCTIONS:
            events.syncs.append(SyncKind.CALL)
            return
        if qualname == tx.OPTIMIZER_STEP:
            events.optimizer_step = True
            barrier = keyword(node, "barrier")
            if barrier is not None and not (isinstance(barrier, ast.Constant) and barrier.value is False):
                events.syncs.append(SyncKind.BARRIER)
            return
        if qualname is not None:
            if not qualname.startswith(tx.KNOWN_LIBRARIES) and self._hands_over_xla_state(node, scope):
                events.opaque.append(node)  # a function from another module of the project
            return
        compiled = self.fact(func, scope) if isinstance(func, ast.Name) else None
        if compiled is not None and compiled.kind is Kind.COMPILED:
            events.syncs.append(SyncKind.COMPILED)
            return
        found = self.callee(node, scope)
        if found is not None:
            function = found[0]
            if id(function) in visiting or id(function) not in self._functions:
                return
            inner = self._events(
                function.body, self._functions[id(function)], visiting | {id(function)}, in_callee=True
            )
            events.optimizer_step |= inner.optimizer_step
            events.syncs.extend(inner.syncs)
            events.opaque.extend(inner.opaque)
            return
        if isinstance(func, ast.Attribute):
            receiver = self.fact(func.value, scope)
            if func.attr == "step" and receiver is not None and receiver.kind is Kind.OPTIMIZER and receiver.xla:
                events.optimizer_step = True
            elif receiver is None and self._hands_over_xla_state(node, scope):
                events.opaque.append(node)
            return
        if not isinstance(func, ast.Name):
            if self._hands_over_xla_state(node, scope):
                events.opaque.append(node)  # `steps[i](model, x)`: it may do anything, sync included
            return
        target = self.fact(func, scope)
        if target is None and not self.local_class(func.id, scope) and self._hands_over_xla_state(node, scope):
            events.opaque.append(node)

    def local_class(self, name: str, scope: Scope) -> bool:
        found = self.index.lookup(name, scope)
        return found is not None and all(b.kind is BindingKind.CLASS for b in found[1])

    def _hands_over_xla_state(self, node: ast.Call, scope: Scope) -> bool:
        """Whether a call the analysis cannot see into is given XLA tensors, modules, optimizers or loaders."""
        for argument in [*node.args, *(k.value for k in node.keywords)]:
            value = argument.value if isinstance(argument, ast.Starred) else argument
            fact = self.fact(value, scope)
            if fact is None:
                continue
            if fact.is_xla or fact.kind in (Kind.MODULE, Kind.OPTIMIZER, Kind.DEVICE_LOADER, Kind.PARAMS):
                return True
        return False

    def _mark_places(self, step: StepLoop) -> None:
        """Record every node that runs once per step of ``step``, following calls into local functions.

        A node reached both under a modulo guard and outside one counts as unguarded.
        """
        loop = step.node
        pending = self._mark_body(step, loop.body, step.scope, False)
        if isinstance(loop, ast.While):
            pending.extend(self._mark(step, [loop.test], step.scope, False, None))
        done: dict[int, bool] = {}
        while pending:
            statements, scope, guarded = pending.pop()
            for function_body, callee_scope, inside in self._mark_body(step, statements, scope, guarded):
                key = id(function_body)
                if done.get(key, True) is False or (key in done and inside):
                    continue  # already walked with this guard or a weaker one
                done[key] = inside
                pending.append((function_body, callee_scope, inside))

    def _mark_body(
        self, step: StepLoop, statements: list, scope: Scope, guarded: bool
    ) -> list[tuple[list, Scope, bool]]:
        """Mark a loop body or a called function's body statement by statement, noting after an explicit
        sync of that body which names were assigned since (a tensor named outside them holds its value)."""
        calls = []
        since: set[str] | None = None
        for statement in statements:
            if since is not None:
                since |= _assigned_names(statement)
            assigned = frozenset(since) if since is not None else None
            calls.extend(self._mark(step, [statement], scope, guarded, assigned))
            if self._syncs(statement, scope):
                since = set()
        return calls

    def _mark(
        self, step: StepLoop, statements: list, scope: Scope, guarded: bool, assigned: frozenset[str] | None
    ) -> list[tuple[list, Scope, bool]]:
        """Mark the nodes of ``statements``; return the bodies of the local functions they call."""
        calls = []
        for node, inside in _walk_guarded(statements, guarded):
            previous = self.places.get(id(node))
            if previous is None or (previous.loop is step and previous.guarded and not inside):
                self.places[id(node)] = StepPlace(step, inside, assigned)
            if not isinstance(node, ast.Call):
                continue
            found = self.callee(node, scope)
            if found is not None and id(found[0]) in self._functions:
                calls.append((found[0].body, self._functions[id(found[0])], inside))
        return calls

    def _syncs(self, statement: ast.stmt, scope: Scope) -> bool:
        """Whether a loop-body statement is an explicit sync (``torch_xla.sync()``, ``with torch_xla.step():``)."""
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            return self.qualname(statement.value.func, scope) in tx.SYNC_FUNCTIONS
        if isinstance(statement, ast.With):
            return any(
                isinstance(item.context_expr, ast.Call)
                and self.qualname(item.context_expr.func, scope) == tx.STEP_CONTEXT
                for item in statement.items
            )
        return False

    def place(self, node: ast.AST) -> StepPlace | None:
        """Where ``node`` runs once per training step, if it does."""
        return self.places.get(id(node))


def _loops(root: ast.AST) -> Iterator[_Loop]:
    """The loops of one scope (not of functions nested in it)."""
    body = root.body if isinstance(root, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef) else []
    yield from _loops_in(body, deep=True)


def _loops_in(statements: list, deep: bool = False) -> Iterator[_Loop]:
    """Loops in ``statements``: the outermost ones, or (``deep``) every one, never inside nested functions."""
    stack = list(reversed(statements))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, _Loop):
            yield node
            if not deep:
                continue
        stack.extend(reversed([c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt)]))


def _assigned_names(statement: ast.stmt) -> set[str]:
    return {n.id for n in ast.walk(statement) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}


def _step_closure_callbacks(node: ast.Call) -> bool:
    func = node.func
    return isinstance(func, ast.Attribute) and func.attr == "add_step_closure"


def _walk_step(statements: list, skip_loops: bool = False) -> Iterator[ast.AST]:
    """Every node of ``statements`` that runs with them: not nested definitions, not step-closure callbacks."""
    stack: list[ast.AST] = list(reversed(statements))
    while stack:
        node = stack.pop()
        if skip_loops and isinstance(node, _Loop):
            continue
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Call) and _step_closure_callbacks(node):
            continue  # the callback and its arguments run after the step's graph has run
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def moves_items_to_device(loop: ast.For | ast.AsyncFor, model: TorchXlaModel, scope: Scope) -> str | None:
    """The first ``x.to(device)`` in the loop's body of a name the loop header binds (``for x, y in loader``).

    Batches of a device loader are on the device already; a loop that moves what it iterates over
    iterates over host batches.
    """
    targets = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    for node in _walk_step(loop.body):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to"):
            continue
        receiver = node.func.value
        if not (isinstance(receiver, ast.Name) and receiver.id in targets and node.args):
            continue
        device = model.fact(node.args[0], scope)
        if device is not None and device.kind is Kind.DEVICE:
            return ast.unparse(node)
    return None


def is_modulo_guard(test: ast.expr) -> bool:
    """Whether an ``if`` test runs its body only every N steps (``step % N == 0``).

    Examples:
        >>> is_modulo_guard(ast.parse("(i + 1) % log_every == 0 and xm.is_master_ordinal()").body[0].value)
        True
        >>> is_modulo_guard(ast.parse("'%d' % i == s").body[0].value)
        False
    """
    return any(
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Mod)
        and not (isinstance(node.left, ast.Constant) and isinstance(node.left.value, str | bytes))
        for node in ast.walk(test)
    )


def _walk_guarded(statements: list, guarded: bool) -> Iterator[tuple[ast.AST, bool]]:
    """Like :func:`_walk_step`, with whether each node sits in the body of an ``if step % N == 0:``."""
    stack: list[tuple[ast.AST, bool]] = [(s, guarded) for s in reversed(statements)]
    while stack:
        node, inside = stack.pop()
        yield node, inside
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Call) and _step_closure_callbacks(node):
            continue
        if isinstance(node, ast.If) and is_modulo_guard(node.test):
            children = [(node.test, inside), *((s, True) for s in node.body), *((s, inside) for s in node.orelse)]
            stack.extend(reversed(children))
            continue
        stack.extend((child, inside) for child in reversed(list(ast.iter_child_nodes(node))))


def model_for(index: ModuleIndex) -> TorchXlaModel:
    """The torch_xla model of a module, built on first request and shared by every TX rule."""
    return index.derived("torch_xla_model", TorchXlaModel)
