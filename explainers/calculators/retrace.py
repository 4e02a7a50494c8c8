"""Retrace calculator: which calls to one ``jax.jit`` function trace and compile, and why.

``jax.jit`` keeps a cache per function object. Its key holds the pytree structure of the
arguments, each array leaf's abstract type (dtype, shape, weak type), the values of static
arguments, and which arguments came by keyword. A call whose key is new traces and compiles the
function again; JAX explains such a miss under ``JAX_EXPLAIN_CACHE_MISSES=1`` by comparing the key
with the closest key it has seen, and this calculator reproduces that comparison and its wording.

Call syntax (the ``calls`` field)::

    x:f32[8,128] n:static(3); x:f32[4,128] n:static(3); fn:new x:f32[8,128] n:static(3)

* Calls are separated by ``;`` or new lines, arguments by spaces (or commas).
* ``name:VALUE`` is an argument passed by position; the name is the parameter it fills, so the
  same position must carry the same name in every call. ``name=VALUE`` passes it by keyword, which
  JAX keys differently from passing it by position.
* ``VALUE`` is an aval in JAX notation: ``f32[8,128]``, ``bf16[]`` (dtypes as in ``f32``/``float32``,
  ``i4``, ``f8_e4m3fn``, ``bool``); ``~f32[]`` is weak-typed, as a Python scalar such as ``1.0`` is;
  ``static(3)`` is a static argument (``static_argnums``/``static_argnames``) holding a Python
  literal; ``(a, b)``, ``[a, b]``, ``{w: a, b: c}`` and ``None`` are pytree containers (a
  parenthesised value is always a tuple, ``(a)`` included).
* ``fn:new`` at the start of a call makes that call, and the ones after it, use a fresh function
  object, as ``jax.jit(lambda x: ...)`` written inside a loop does.

Modelled: function identity, pytree structure, avals and weak types, static values (compared as JAX
compares them: same type and ``==``), positional versus keyword. Not modelled: shardings, layouts,
committed devices and config values such as ``jax_enable_x64``, which also enter the key. All calls
are taken to come from one call site, as in a loop; JAX words its explanations for that case.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Literal

from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.limits import MAX_DIM, MAX_RANK
from xlalens.explainers.calculators.pytree_text import DTYPE, NAME, Container, PytreeTextParser
from xlalens.explainers.calculators.registry import Calculator, Row, Status, register_calculator
from xlalens.explainers.calculators.svg import HIT_FILL, MISS_FILL, Picture, label, rect, svg
from xlalens.explainers.calculators.units import format_count

MAX_CALLS = 10_000
"""More calls than this is not a trace of a real program step; the calculator refuses."""
MAX_KEYS_PER_FUNCTION = 500
"""Each miss is compared with every earlier key of its function (as JAX does); this bounds that work."""
MAX_TEXT = 200_000
MAX_DEPTH = 32

WEAK_TYPE_LINK = "https://docs.jax.dev/en/latest/type_promotion.html#weak-types"
"""JAX glues this link, with no space, to the end of a type explanation that involves weak types."""
NEVER_SEEN = "never seen function:"
SAME_LINE_HINT = (
    "but seen another function defined on the same line; maybe the function is",
    "being re-defined repeatedly, preventing caching?",
)
_STATIC_CLASS = "<class 'jax._src.tree_util.Static'>"


@dataclass(frozen=True)
class Aval:
    """An array's abstract value: what a traced argument contributes to the cache key.

    Attributes:
        dtype: The short dtype name (``f32``).
        shape: The dimensions.
        weak: Whether the type is weak, as for a Python scalar.
    """

    dtype: str
    shape: tuple[int, ...]
    weak: bool = False

    def __str__(self) -> str:
        return dtypes.aval(self.dtype, self.shape, self.weak)

    def jax_str(self) -> str:
        """The type as JAX writes it in a cache-miss explanation, without the weak marker.

        Examples:
            >>> Aval("f32", (8, 128), weak=True).jax_str()
            'f32[8,128]'
        """
        return dtypes.aval(self.dtype, self.shape)


@dataclass(frozen=True, eq=False)
class Static:
    """A static argument's value. Equal only to a value of the same type that compares equal, like JAX's.

    Examples:
        >>> Static(3) == Static(3), Static(3) == Static(3.0), Static((1, 2)) == Static((1.0, 2))
        (True, False, True)
    """

    value: Hashable

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Static) and type(self.value) is type(other.value) and self.value == other.value

    def __hash__(self) -> int:
        return hash((type(self.value).__name__, self.value))

    def __str__(self) -> str:
        return f"static({self.value!r})"


@dataclass(frozen=True)
class CallContainer(Container):
    """A container of call arguments: dict keys that are names are written bare (``{lr: f32[]}``)."""

    def key_text(self, key: str) -> str:
        return _format_key(key)


Value = Aval | Static | CallContainer


@dataclass(frozen=True)
class Argument:
    """One argument of a call: the parameter name, its value, and whether it was passed by keyword."""

    name: str
    value: Value
    keyword: bool = False

    def __str__(self) -> str:
        return f"{self.name}{'=' if self.keyword else ':'}{self.value}"


@dataclass(frozen=True)
class Call:
    """One call of the jitted function; ``new_function`` starts a fresh function object."""

    arguments: tuple[Argument, ...]
    new_function: bool = False

    def __str__(self) -> str:
        parts = (["fn:new"] if self.new_function else []) + [str(argument) for argument in self.arguments]
        return " ".join(parts)


def format_calls(calls: tuple[Call, ...] | str) -> str:
    """Calls back as the text :func:`parse_calls` reads.

    Text, as a diagnostic carries its calculator inputs, is read and written back in the same
    normal form, so a prefilled link never holds text the page would reject.

    Raises:
        CalculatorInputError: ``calls`` when the text cannot be read.

    Examples:
        >>> format_calls(parse_calls("x:f32[3] p:{w:f32[3,3], b:f32[3]};fn:new x=~f32[]"))
        'x:f32[3] p:{b: f32[3], w: f32[3,3]}; fn:new x=~f32[]'
        >>> format_calls("x:float32[8];x:f32[9]")
        'x:f32[8]; x:f32[9]'
    """
    if isinstance(calls, str):
        try:
            calls = parse_calls(calls)
        except ValueError as error:
            raise CalculatorInputError("calls", str(error)) from None
    return "; ".join(str(call) for call in calls)


def parse_calls(text: str) -> tuple[Call, ...]:
    """Read the ``calls`` field.

    Raises:
        ValueError: naming the call and the text that could not be read.

    Examples:
        >>> calls = parse_calls("x:f32[8,128] n:static(3); y=(bf16[2], None)")
        >>> calls[0].arguments[1]
        Argument(name='n', value=Static(value=3), keyword=False)
        >>> print(calls[1])
        y=(bf16[2], None)
        >>> parse_calls("x:f32[3")
        Traceback (most recent call last):
        ...
        ValueError: call 1: expected ',' or ']' in the shape of x at the end of the text
    """
    if len(text) > MAX_TEXT:
        raise ValueError(f"the text has {format_count(len(text))} characters; the limit is {format_count(MAX_TEXT)}")
    pieces = [piece.strip() for piece in _split_top_level(text)]
    while pieces and not pieces[-1]:
        pieces.pop()  # a trailing ';' or new line
    if not pieces:
        raise ValueError("no calls; write one call per ';', e.g. x:f32[8,128]; x:f32[4,128]")
    if len(pieces) > MAX_CALLS:
        raise ValueError(f"{format_count(len(pieces))} calls; the limit is {format_count(MAX_CALLS)}")
    return tuple(_CallParser(piece, number).parse() for number, piece in enumerate(pieces, start=1))


def _split_top_level(text: str) -> Iterator[str]:
    """Split on ``;`` and new lines outside brackets and quotes."""
    depth = 0
    quote = ""
    start = 0
    for index, char in enumerate(text):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char in ";\n" and depth == 0:
            yield text[start:index]
            start = index + 1
    yield text[start:]


_FN_NEW = re.compile(r"fn:new(?=[\s,]|$)")


class _CallParser(PytreeTextParser):
    """Recursive descent over one call's text."""

    def __init__(self, text: str, number: int) -> None:
        super().__init__(text)
        self.number = number
        self.argument = ""

    def shape_owner(self) -> str:
        return f" of {self.argument}"

    def error_prefix(self) -> str:
        return f"call {self.number}: "

    def parse(self) -> Call:
        if not self.text:
            raise ValueError(f"call {self.number} is empty; a call needs fn:new or an argument such as x:f32[8,128]")
        new_function = False
        match = _FN_NEW.match(self.text)
        if match:
            new_function = True
            self.pos = match.end()
        arguments: list[Argument] = []
        while True:
            self.skip(",")
            if self.pos >= len(self.text):
                break
            if _FN_NEW.match(self.text, self.pos):
                raise self.error("fn:new must come first in its call")
            arguments.append(self.parse_argument())
        return Call(tuple(arguments), new_function)

    def parse_argument(self) -> Argument:
        name = self.expect_name("an argument such as x:f32[8,128] or x=f32[8,128]")
        self.argument = name
        if self.pos < len(self.text) and self.text[self.pos] in ":=":
            keyword = self.text[self.pos] == "="
            self.pos += 1
        else:
            raise self.error(f"expected ':' (by position) or '=' (by keyword) after {name}")
        value = self.parse_value(depth=0, top=True)
        return Argument(name, value, keyword)

    def parse_value(self, depth: int, top: bool = False) -> Value:
        if depth > MAX_DEPTH:
            raise self.error(f"pytrees nested deeper than {MAX_DEPTH} levels are not supported")
        self.skip()
        rest = self.text[self.pos :]
        if rest.startswith("static("):
            if not top:
                raise self.error(
                    "static(...) must be a whole argument; static_argnums/static_argnames mark whole arguments"
                )
            return self.parse_static()
        if rest.startswith("None") and not rest[4:5].isalnum() and rest[4:5] != "_":
            self.pos += 4
            return CallContainer("None")
        if rest[:1] in ("(", "["):
            children, _ = self.parse_items(depth)
            return CallContainer("tuple" if rest[:1] == "(" else "list", tuple(children))
        if rest[:1] == "{":
            keys, values = self.parse_dict(depth)
            return CallContainer("dict", values, keys)
        if rest[:1] == "~" or DTYPE.match(rest):
            return self.parse_aval()
        raise self.error(
            "expected a type such as f32[8,128] or ~f32[], static(3), a container (...), [...], {...}, or None"
        )

    def parse_aval(self) -> Aval:
        weak = self.text.startswith("~", self.pos)
        if weak:
            self.pos += 1
        match = DTYPE.match(self.text, self.pos)
        if not match:
            raise self.error("expected a dtype such as f32 after '~'")
        try:
            dtype = dtypes.lookup(match.group())
        except ValueError as error:
            raise self.error(str(error)) from None
        if weak and dtype.kind == "bool":
            raise self.error("bool is never weak-typed in JAX; Python True/False give bool[]")
        self.pos = match.end()
        if not self.text.startswith("[", self.pos):
            raise self.error(
                f"expected '[' and the shape after {match.group()}, e.g. {dtype.short}[8,128] or {dtype.short}[]"
            )
        self.pos += 1
        return Aval(dtype.short, self.parse_dims(), weak)

    def parse_static(self) -> Static:
        start = self.pos + len("static(")
        depth = 1
        quote = ""
        index = start
        while index < len(self.text):
            char = self.text[index]
            if quote:
                if char == "\\":
                    index += 1
                elif char == quote:
                    quote = ""
            elif char in "'\"":
                quote = char
            elif char in "([{":
                depth += 1
            elif char in ")]}":
                depth -= 1
                if depth == 0:
                    break
            index += 1
        else:
            raise self.error("static( has no closing ')'")
        source = self.text[start:index]
        try:
            value = ast.literal_eval(source.strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            raise self.error(
                f"static({source}) does not hold a Python literal such as 3, 'add', (1, 2) or None"
            ) from None
        try:
            hash(value)
        except TypeError as error:
            raise self.error(
                "Non-hashable static arguments are not supported. An error occurred while trying to hash an "
                f"object of type {type(value)}, {value!r}. The error was: TypeError: {error}"
            ) from None
        self.pos = index + 1
        return Static(value)


def _format_key(key: str) -> str:
    return key if NAME.fullmatch(key) else repr(key)


@dataclass(frozen=True)
class RetraceInputs:
    """A sequence of calls to one jitted function.

    Attributes:
        calls: The calls in order (see the module docstring for the text syntax).

    Raises:
        CalculatorInputError: ``calls`` when the calls cannot come from one Python function: a
            position named differently in two calls, an argument static in one call and traced in
            another, a name given twice, a positional argument after a keyword one, or too many calls.
    """

    calls: tuple[Call, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.calls, tuple) or not all(isinstance(call, Call) for call in self.calls):
            raise CalculatorInputError("calls", "expected a tuple of Call values; use parse_calls() on text")
        if not self.calls:
            raise CalculatorInputError("calls", "no calls")
        if len(self.calls) > MAX_CALLS:
            raise CalculatorInputError(
                "calls", f"{format_count(len(self.calls))} calls; the limit is {format_count(MAX_CALLS)}"
            )
        positional: dict[int, tuple[str, int]] = {}
        static: dict[str, tuple[bool, int]] = {}
        for number, call in enumerate(self.calls, start=1):
            for argument in call.arguments:
                problem = _value_problem(argument.value, depth=0)
                if problem:
                    raise CalculatorInputError("calls", f"call {number}, argument {argument.name}: {problem}")
            seen: set[str] = set()
            keyword_seen = False
            position = 0
            for argument in call.arguments:
                if argument.name in seen:
                    raise CalculatorInputError(
                        "calls", f"call {number} gives {argument.name} twice (Python: got multiple values)"
                    )
                seen.add(argument.name)
                is_static = isinstance(argument.value, Static)
                earlier = static.setdefault(argument.name, (is_static, number))
                if earlier[0] != is_static:
                    kinds = ("static", "traced") if earlier[0] else ("traced", "static")
                    raise CalculatorInputError(
                        "calls",
                        f"{argument.name} is {kinds[0]} in call {earlier[1]} but {kinds[1]} in call {number}; "
                        "static_argnums/static_argnames are fixed when jax.jit wraps the function",
                    )
                if argument.keyword:
                    keyword_seen = True
                    continue
                if keyword_seen:
                    raise CalculatorInputError(
                        "calls", f"call {number}: positional {argument.name} follows a keyword argument"
                    )
                name, first = positional.setdefault(position, (argument.name, number))
                if name != argument.name:
                    raise CalculatorInputError(
                        "calls",
                        f"position {position} is {name} in call {first} but {argument.name} in call {number}; "
                        "positional arguments fill the function's parameters in order",
                    )
                position += 1
        names_by_position = {name: index for index, (name, _) in positional.items()}
        for number, call in enumerate(self.calls, start=1):
            count = sum(not argument.keyword for argument in call.arguments)
            for argument in call.arguments:
                index = names_by_position.get(argument.name)
                if argument.keyword and index is not None and index < count:
                    raise CalculatorInputError(
                        "calls",
                        f"call {number} passes {argument.name} by keyword and also fills its position {index}",
                    )


def _value_problem(value: object, depth: int) -> str:
    """Why a value built in code (not parsed) cannot be part of a cache key; empty when it can."""
    if depth > MAX_DEPTH:
        return f"pytrees nested deeper than {MAX_DEPTH} levels are not supported"
    if isinstance(value, Aval):
        try:
            dtypes.lookup(value.dtype)
        except ValueError as error:
            return str(error)
        if len(value.shape) > MAX_RANK or not all(isinstance(d, int) and 0 <= d < MAX_DIM for d in value.shape):
            return f"shape {value.shape} needs at most {MAX_RANK} integer dimensions in [0, 2**62)"
        return ""
    if isinstance(value, Static):
        try:
            hash(value.value)
        except TypeError:
            return f"static value {value.value!r} is not hashable"
        return ""
    if isinstance(value, CallContainer) and value.kind in ("tuple", "list", "dict", "None"):
        if value.kind == "dict" and len(value.keys) != len(value.children):
            return "a dict node needs one key per child"
        return next((p for child in value.children if (p := _value_problem(child, depth + 1))), "")
    return f"{value!r} is not an Aval, Static or container"


CallKind = Literal["hit", "never seen", "pytree", "types"]


@dataclass(frozen=True)
class CallOutcome:
    """What one call did.

    Attributes:
        call: The call's number, from 1.
        function: Which function object it used, from 1 (``fn:new`` starts the next).
        hit: Whether its key was already cached.
        trace: For a miss, the running count of traces (this call's trace number); for a hit, 0.
        kind: ``hit``, ``never seen`` (nothing cached for this function object), ``pytree`` or
            ``types`` (the class of difference to the closest earlier key, JAX's wording).
        closest_call: For a hit, the first call with the same key; for a ``pytree``/``types`` miss,
            the first call with the closest earlier key.
        explanation: JAX's explanation lines without indentation, e.g.
            ``("different input types:", "* at x, now f32[4] and before f32[3]")``.
        weak_type_link: Whether JAX appends its weak-type documentation link to the last line.
    """

    call: int
    function: int
    hit: bool
    trace: int
    kind: CallKind
    closest_call: int | None
    explanation: tuple[str, ...]
    weak_type_link: bool = False


@dataclass(frozen=True)
class RetraceResult:
    """Traces, compiles and cache hits over a sequence of calls.

    Attributes:
        calls: Number of calls.
        function_objects: Number of distinct function objects (1 + the number of ``fn:new`` after the first call).
        distinct_keys: Distinct (function object, cache key) pairs.
        traces: Tracing-cache misses; each traces the Python function once.
        compiles: Lowerings and XLA compilations; one per trace, since shardings are not modelled.
        cache_hits: Calls that reuse a cached executable.
        outcomes: Per call, what happened and why.
    """

    calls: int
    function_objects: int
    distinct_keys: int
    traces: int
    compiles: int
    cache_hits: int
    outcomes: tuple[CallOutcome, ...]

    @property
    def status(self) -> Status:
        """``warning`` when the function traces more than once; ``ok`` otherwise."""
        return "warning" if self.traces > 1 else "ok"

    @property
    def headline(self) -> str:
        """Counts, and the first retrace with JAX's explanation."""
        text = (
            f"{self.calls} call{_s(self.calls)} → {self.traces} trace{_s(self.traces)}, "
            f"{self.compiles} compile{_s(self.compiles)}, {self.cache_hits} cache hit{_s(self.cache_hits)}"
        )
        retrace = next((o for o in self.outcomes if not o.hit and o.call > 1), None)
        if retrace is None:
            return text
        return f"{text}; first retrace at call {retrace.call}: {_summary(retrace)}"

    @property
    def formula(self) -> str:
        """The predicted counts, e.g. ``3 distinct keys → 3 traces, 3 compiles``."""
        keys, traces, compiles = self.distinct_keys, self.traces, self.compiles
        return f"{keys} distinct key{_s(keys)} → {traces} trace{_s(traces)}, {compiles} compile{_s(compiles)}"

    def rows(self) -> tuple[Row, ...]:
        """Totals, then one row per call."""
        new_objects = self.function_objects - 1
        rows = [
            Row("calls", format_count(self.calls), key=True),
            Row("function objects", format_count(self.function_objects), f"1 + {new_objects} fn:new"),
            Row(
                "distinct cache keys",
                format_count(self.distinct_keys),
                "distinct (function object, pytree structure, avals with weak types, static values, keyword names)",
                key=True,
            ),
            Row("traces", format_count(self.traces), self.formula, key=True),
            Row(
                "compiles",
                format_count(self.compiles),
                f"= traces = {self.traces} (no sharding or layout changes modelled)",
                key=True,
            ),
            Row("cache hits", format_count(self.cache_hits), f"{self.calls} calls - {self.traces} traces"),
        ]
        for outcome in self.outcomes:
            value = f"hit (same key as call {outcome.closest_call})" if outcome.hit else f"miss → trace {outcome.trace}"
            formula = "\n".join(outcome.explanation)
            if outcome.closest_call is not None and not outcome.hit:
                formula = f"closest earlier key: call {outcome.closest_call}\n{formula}"
            if outcome.weak_type_link:
                formula += f" (JAX appends {WEAK_TYPE_LINK})"
            rows.append(Row(f"call {outcome.call} (function object {outcome.function})", value, formula))
        return tuple(rows)


def _s(count: int) -> str:
    return "" if count == 1 else "s"


_STATIC_LINE = re.compile(
    r"\* at input path (.*), now .* Static\(val=(.*)\) and before .* Static\(val=(.*)\), so the pytree node "
    r"metadata does not match$"
)


def _summary(outcome: CallOutcome) -> str:
    """A short form of the explanation for the headline; the rows keep JAX's full wording."""
    if outcome.kind == "never seen":
        return "never seen function (a new function object; JAX caches per function identity)"
    details = []
    for line in outcome.explanation[1:]:
        static = _STATIC_LINE.match(line)
        if static:
            details.append(f"static argument at input path {static[1]} is now {static[2]}, before {static[3]}")
        else:
            details.append(line.removeprefix("* "))
    return f"{'; '.join(details)} (versus call {outcome.closest_call})"


# A pytree path entry as JAX's keystr prints it: "[0]" or "['w']".
_Path = tuple[str, ...]


def _root(call: Call) -> CallContainer:
    """The tracing-cache key tree: ``(args, kwargs)`` with kwargs sorted by name, as JAX builds it."""
    args = tuple(a.value for a in call.arguments if not a.keyword)
    kwargs = sorted(((a.name, a.value) for a in call.arguments if a.keyword), key=lambda pair: pair[0])
    return CallContainer(
        "tuple",
        (CallContainer("tuple", args), CallContainer("dict", tuple(v for _, v in kwargs), tuple(k for k, _ in kwargs))),
    )


def _type_name(value: Value) -> str:
    if isinstance(value, Aval):
        return "pytree leaf"
    if isinstance(value, Static):
        return _STATIC_CLASS
    return "<class 'NoneType'>" if value.kind == "None" else f"<class '{value.kind}'>"


def _child_entries(node: CallContainer) -> tuple[str, ...]:
    if node.kind == "dict":
        return tuple(f"[{key!r}]" for key in node.keys)
    return tuple(f"[{index}]" for index in range(len(node.children)))


def _tree_errors(path: _Path, new: Value, old: Value) -> Iterator[str]:
    """JAX's pytree equality errors (``tree_util._equality_errors``), as explanation lines."""
    if isinstance(new, Aval) and isinstance(old, Aval):
        return
    where = "".join(path)
    new_type, old_type = _type_name(new), _type_name(old)
    if new_type != old_type:
        yield f"* at input path {where}, now {new_type} and before {old_type}, so their Python types differ"
        return
    if isinstance(new, Static) and isinstance(old, Static):
        if new != old:
            yield (
                f"* at input path {where}, now {new_type} with pytree metadata Static(val={new.value!r}) and before "
                f"{old_type} with pytree metadata Static(val={old.value!r}), so the pytree node metadata does not match"
            )
        return
    assert isinstance(new, CallContainer) and isinstance(old, CallContainer)
    if new.kind in ("tuple", "list") and len(new.children) != len(old.children):
        yield (
            f"* at input path {where}, now {new.kind} of length {len(new.children)} and before {old.kind} "
            f"of length {len(old.children)}, so the lengths do not match"
        )
        return
    if len(new.children) != len(old.children):
        difference = " ".join(repr(key) for key in sorted(set(new.keys) ^ set(old.keys)))
        yield (
            f"* at input path {where}, now {new_type} with {_children(len(new.children))} and before {old_type} "
            f"with {_children(len(old.children))}, so the numbers of children do not match"
            + (f", with the symmetric difference of key sets: {{{difference}}}" if difference else "")
        )
        return
    if new.keys != old.keys:
        yield (
            f"* at input path {where}, now {new_type} with pytree metadata {new.keys!r} and before {old_type} "
            f"with pytree metadata {old.keys!r}, so the pytree node metadata does not match"
        )
        return
    for entry, new_child, old_child in zip(_child_entries(new), new.children, old.children, strict=True):
        yield from _tree_errors((*path, entry), new_child, old_child)


def _children(count: int) -> str:
    # JAX writes "0 child" and "1 child": it adds "ren" only above one.
    return f"{count} child{'ren' if count > 1 else ''}"


def _leaves(call: Call) -> list[tuple[str, Aval]]:
    """Array leaves with JAX's argument names (``x``, ``p['w']``), positional first, then keywords by name."""
    ordered = [a for a in call.arguments if not a.keyword] + sorted(
        (a for a in call.arguments if a.keyword), key=lambda a: a.name
    )
    leaves: list[tuple[str, Aval]] = []
    for argument in ordered:
        _collect(argument.name, argument.value, leaves)
    return leaves


def _collect(name: str, value: Value, out: list[tuple[str, Aval]]) -> None:
    if isinstance(value, Aval):
        out.append((name, value))
    elif isinstance(value, CallContainer):
        for entry, child in zip(_child_entries(value), value.children, strict=True):
            _collect(name + entry, child, out)


def _type_lines(new_leaves: list[tuple[str, Aval]], old_leaves: list[tuple[str, Aval]]) -> tuple[list[str], bool]:
    """JAX's ``different input types`` lines, and whether any involves a weak-type difference."""
    lines = []
    weak = False
    for (name, new), (_, old) in zip(new_leaves, old_leaves, strict=True):
        if new == old:
            continue
        new_text, old_text = new.jax_str(), old.jax_str()
        if len(new.shape) != len(old.shape):
            # Each aval carries a per-dimension sharding spec, so a rank change also changes the
            # sharding; JAX then prints the mesh axis types too, "({})" for the default empty mesh.
            new_text += "({})"
            old_text += "({})"
        if new.weak != old.weak:
            weak = True
            new_text += f"{{weak_type={new.weak}}}"
            old_text += f"{{weak_type={old.weak}}}"
        lines.append(f"* at {name}, now {new_text} and before {old_text}")
    return lines, weak


@dataclass(frozen=True)
class _Diff:
    """A comparison with one earlier key, ordered the way JAX picks the closest key."""

    severity: int
    count: int
    message: str
    lines: tuple[str, ...]
    weak: bool

    @property
    def order(self) -> tuple[int, int, str]:
        return (self.severity, self.count, self.message)


def _tree_diff(new: Call, old: Call) -> _Diff:
    lines = list(_tree_errors((), _root(new), _root(old)))
    header = "different input pytree:"
    return _Diff(1, len(lines), "\n".join([header, *("  " + line for line in lines)]), (header, *lines), False)


def _type_diff(new_leaves: list[tuple[str, Aval]], old_leaves: list[tuple[str, Aval]]) -> _Diff:
    lines, weak = _type_lines(new_leaves, old_leaves)
    header = "different input types:"
    message = "\n".join([header, *("  " + line for line in lines)]) + (WEAK_TYPE_LINK if weak else "")
    return _Diff(3, len(lines), message, (header, *lines), weak)


def _structure(value: Value) -> Hashable:
    """The key without its avals: two keys with equal structures differ only in leaf types."""
    if isinstance(value, Aval):
        return "leaf"
    if isinstance(value, Static):
        return value
    return (value.kind, value.keys, tuple(_structure(child) for child in value.children))


@dataclass
class _Seen:
    """The keys one function object has traced, grouped by structure, in first-seen order."""

    keys: dict[Hashable, int]
    by_structure: dict[Hashable, list[tuple[int, Call, list[tuple[str, Aval]]]]]

    def closest(self, call: Call, structure: Hashable, leaves: list[tuple[str, Aval]]) -> tuple[int, _Diff]:
        """JAX's closest earlier key: the smallest (severity, difference count, message).

        Every pytree difference (severity 1) ranks before every type difference (severity 3), and
        keys that share a structure give the same pytree message, so each other structure is compared
        once; types are compared only when all earlier keys share the new key's structure.
        """
        others = [(members[0][0], members[0][1]) for key, members in self.by_structure.items() if key != structure]
        if others:
            return min(((number, _tree_diff(call, old)) for number, old in others), key=_rank)
        same = self.by_structure[structure]
        signature = [_leaf_signature(aval) for _, aval in leaves]
        counts = [sum(a != _leaf_signature(b) for a, (_, b) in zip(signature, old, strict=True)) for _, _, old in same]
        fewest = min(counts)
        candidates = [
            (number, _type_diff(leaves, old)) for (number, _, old), n in zip(same, counts, strict=True) if n == fewest
        ]
        return min(candidates, key=_rank)


def _rank(pair: tuple[int, _Diff]) -> tuple[tuple[int, int, str], int]:
    return (pair[1].order, pair[0])


def _leaf_signature(aval: Aval) -> tuple[str, tuple[int, ...], bool]:
    return (aval.dtype, aval.shape, aval.weak)


def compute_retrace(inputs: RetraceInputs) -> RetraceResult:
    """Replay the calls against a model of JAX's per-function tracing cache.

    A call hits when its function object has already traced the same key. On a miss with earlier
    keys, the explanation is JAX's: the earlier key with the smallest (severity, number of
    differences, message) wins, where pytree differences rank before type differences.

    Args:
        inputs: The calls.

    Returns:
        Per-call outcomes and totals.

    Raises:
        CalculatorInputError: ``calls`` when one function object sees more than
            ``MAX_KEYS_PER_FUNCTION`` distinct keys.

    Examples:
        >>> result = compute_retrace(RetraceInputs(parse_calls("x:f32[3]; x:f32[3]; x:f32[4]; x:~f32[]")))
        >>> print(result.headline)  # doctest: +NORMALIZE_WHITESPACE
        4 calls → 3 traces, 3 compiles, 1 cache hit; first retrace at call 3: at x, now f32[4] and before f32[3]
        (versus call 1)
        >>> result.outcomes[3].explanation
        ('different input types:', '* at x, now f32[]({}){weak_type=True} and before f32[3]({}){weak_type=False}')
        >>> compute_retrace(RetraceInputs(parse_calls("x:f32[3]; fn:new x:f32[3]"))).outcomes[1].explanation[0]
        'never seen function:'
    """
    outcomes: list[CallOutcome] = []
    function = 0
    seen = _Seen({}, {})
    never_seen = 0
    traces = 0
    for number, call in enumerate(inputs.calls, start=1):
        if call.new_function or number == 1:
            function += 1
            seen = _Seen({}, {})
        root = _root(call)
        first = seen.keys.get(root)
        if first is not None:
            outcomes.append(CallOutcome(number, function, True, 0, "hit", first, ()))
            continue
        traces += 1
        structure = _structure(root)
        leaves = _leaves(call)
        if not seen.keys:
            lines = (NEVER_SEEN, *SAME_LINE_HINT) if never_seen else (NEVER_SEEN,)
            never_seen += 1
            outcomes.append(CallOutcome(number, function, False, traces, "never seen", None, lines))
        else:
            if len(seen.keys) >= MAX_KEYS_PER_FUNCTION:
                raise CalculatorInputError(
                    "calls",
                    f"function object {function} reaches {format_count(MAX_KEYS_PER_FUNCTION + 1)} distinct keys at "
                    f"call {number}; the limit is {format_count(MAX_KEYS_PER_FUNCTION)}",
                )
            closest, diff = seen.closest(call, structure, leaves)
            kind: CallKind = "pytree" if diff.severity == 1 else "types"
            outcomes.append(CallOutcome(number, function, False, traces, kind, closest, diff.lines, diff.weak))
        seen.keys[root] = number
        seen.by_structure.setdefault(structure, []).append((number, call, leaves))
    return RetraceResult(
        calls=len(inputs.calls),
        function_objects=function,
        distinct_keys=traces,
        traces=traces,
        compiles=traces,
        cache_hits=len(inputs.calls) - traces,
        outcomes=tuple(outcomes),
    )


PICTURE_CALLS = 24
"""Calls drawn in the sequence (the table lists every call)."""


def draw_calls(result: RetraceResult) -> Picture:
    """The calls in order, each a cache hit (green) or a miss that traces and compiles (orange).

    Examples:
        >>> result = compute_retrace(RetraceInputs(parse_calls("x:f32[8]; x:f32[8]; x:f32[16]")))
        >>> print(draw_calls(result).text)
        3 calls: call 1 misses (trace 1, never seen), call 2 hits, call 3 misses (trace 2, types).
    """
    calls = result.outcomes[:PICTURE_CALLS]
    size, gap = 44, 6
    body = []
    described = []
    for index, outcome in enumerate(calls):
        x = 4 + index * (size + gap)
        fill = HIT_FILL if outcome.hit else MISS_FILL
        body.append(rect(x, 18, size, size, fill))
        body.append(label(x + size / 2, 10, f"call {outcome.call}", size=9))
        body.append(label(x + size / 2, 18 + size / 2 - 7, "hit" if outcome.hit else "miss", size=11, weight="600"))
        if not outcome.hit:
            body.append(label(x + size / 2, 18 + size / 2 + 9, f"trace {outcome.trace}", size=9))
            described.append(f"call {outcome.call} misses (trace {outcome.trace}, {outcome.kind})")
        else:
            described.append(f"call {outcome.call} hits")
    more = f"; the first {len(calls)} of {result.calls} calls are drawn" if result.calls > len(calls) else ""
    text = f"{result.calls} call{'' if result.calls == 1 else 's'}: {', '.join(described)}{more}."
    return svg(4 + max(len(calls), 1) * (size + gap), 18 + size + 4, body, text)


CALCULATOR = register_calculator(
    Calculator(
        name="retrace",
        title="jit retrace and cache-miss calculator",
        summary="Which calls to one jax.jit function trace and compile again, and JAX's explanation for each miss.",
        explainer="jit-caching#cache-keys",
        inputs=RetraceInputs,
        fields=(
            Field(
                "calls",
                "text",
                "Calls",
                "One call per ';' or line; arguments name:TYPE (by position) or name=TYPE (by keyword); TYPE is an "
                "aval such as f32[8,128], ~f32[] (weak-typed), static(3), a tuple (...), list [...], dict {k: ...} "
                "or None; start a call with fn:new for a fresh function object.",
                parser=parse_calls,
                formatter=format_calls,
                placeholder="x:f32[8,128] n:static(3); x:f32[4,128] n:static(3)",
                multiline=True,
            ),
        ),
        compute=compute_retrace,
        picture=draw_calls,
        examples=(
            {"calls": "x:f32[8,128]; x:f32[8,128]; x:f32[4,128]; x:f32[8,128]"},
            {"calls": "x:f32[16] scale:~f32[]; x:f32[16] scale:f32[]; x:f32[16] scale:~f32[]"},
            {"calls": "x:f32[8] n:static(2); x:f32[8] n:static(3); x:f32[8] n=static(3)"},
            {"calls": "x:f32[8]; fn:new x:f32[8]; fn:new x:f32[8]"},
            {
                "calls": "params:{w:f32[3,3], b:f32[3]} x:f32[3]; params:{w:f32[3,3]} x:f32[3]; "
                "params:(f32[3,3], f32[3]) x:f32[3]"
            },
        ),
    )
)
