"""What a rule is: one class per bad pattern, carrying its code, message, docs and fix policy.

A rule subclasses :class:`Rule`, names the AST node types it wants in ``node_types`` and
implements :meth:`Rule.check`, which receives each such node together with the
:class:`~xlalens.analyzers.engine.check_context.CheckContext` and reports through it. Its class docstring is
the only copy of its documentation and always has the same sections (see ``DOC_SECTIONS``).
"""

from __future__ import annotations

import ast
import enum
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from xlalens.analyzers.core.diagnostics import Severity

if TYPE_CHECKING:
    from xlalens.analyzers.engine.check_context import CheckContext
    from xlalens.analyzers.semantics.names import ModuleIndex, Scope


_WHAT_IT_DOES = re.compile(r"^## What it does\s*\n+(.+?)(?:\n\s*\n|\n##|\Z)", re.S | re.M)


class FixAvailability(enum.Enum):
    """Whether a rule can offer a fix."""

    NONE = "none"
    SOMETIMES = "sometimes"
    ALWAYS = "always"


class RuleStatus(enum.Enum):
    """Where a rule is in its life: preview rules are opt-in, removed ones only redirect."""

    PREVIEW = "preview"
    STABLE = "stable"
    DEPRECATED = "deprecated"
    REMOVED = "removed"


DOC_SECTIONS: tuple[str, ...] = (
    "## What it does",
    "## Why is this bad?",
    "## Example",
    "Use instead:",
)
"""Sections every rule docstring has, in this order."""

OPTIONAL_DOC_SECTIONS: tuple[str, ...] = ("## Fix safety", "## Options", "## References")
"""Sections a rule docstring may add after the required ones, in this order."""

_CODE_PATTERN = re.compile(r"^(JX|TX)[1-9]\d\d$")


def kebab_case(class_name: str) -> str:
    """Turn a rule class name into its kebab-case rule name.

    Examples:
        >>> kebab_case("TracedValueInPythonControlFlow")
        'traced-value-in-python-control-flow'
        >>> kebab_case("NumPyCallOnTracer")
        'numpy-call-on-tracer'
    """
    name = class_name.replace("NumPy", "Numpy")
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


class Rule:
    """Base class of every rule.

    Class attributes a rule sets:
        code: ``JX`` or ``TX`` plus three digits; the hundreds give the family.
        message: A short summary used when a report gives no message of its own.
        fix_title: What the fix does, as a command ("Use `jax.debug.print`").
        fix_availability: Whether the rule can offer a fix.
        status: Lifecycle; preview rules run only when selected explicitly by full code.
        severity: Default severity.
        explainer: ``page#section`` of the explainer that teaches the mechanism.
        calculator: Name of the calculator whose inputs the rule fills, if any.
        raises: The exception classes the predicted failure raises (``TracerBoolConversionError``),
            by name. A finding in code that expects one of them (a test's ``assertRaises``, a ``try``
            whose ``except`` catches it or a base of it) is not reported. Empty for findings whose
            harm is not an exception (a recompile, a silent no-op).
        node_types: AST node types :meth:`check` is called with.
        needs_traced: Whether :meth:`check` only makes sense inside a traced function; the engine
            then calls it only there.
        call_names: For a rule that looks at ``ast.Call`` nodes: the fully qualified callee names,
            as :meth:`~xlalens.analyzers.semantics.names.ModuleIndex.qualname` resolves them
            (``jax.lax.scan``, ``jax.experimental.pallas.pallas_call``, ``builtins.print``), of the
            calls :meth:`check` can report on. The engine hands the rule only those calls (and
            those matched by ``call_attributes``); ``None`` means every call unless ``call_filter``
            is set. Declare it only when it covers every call the rule can act on, whatever its
            spelling.
        call_attributes: With ``call_names``: method names (``item`` for ``x.item()``) whose
            calls the rule also gets, whatever the callee resolves to.
        call_prefixes: With ``call_names``: prefixes of qualified names (``torch.``) whose calls the
            rule also gets, for a rule that acts on a whole module's functions.
        call_filter: For a rule that looks at calls no name covers (a local jit wrapper): a
            predicate ``(call, scope, index) -> bool`` that every call the rule can act on passes.
            The engine asks it once per call, for all the rules that share it, and hands the rule
            only the calls it accepts (and those its ``call_names`` name, when set). Wrap it in
            ``staticmethod``.
        reference_names: For a rule that looks at ``ast.Attribute`` nodes: the fully qualified names
            (``jax.tree_map``, ``jax.experimental.pallas.tpu.ANY``) of the attribute expressions it
            can report on. The engine hands it only attributes whose last name is the last part of
            one of them and whose qualified name is one of them (or whose name is in
            ``reference_attributes``); ``None`` means every attribute.
        reference_attributes: With ``reference_names``: attribute names (``device_buffer``) whose
            expressions the rule also gets, whatever their object resolves to.
    """

    code: ClassVar[str]
    message: ClassVar[str]
    fix_title: ClassVar[str | None] = None
    fix_availability: ClassVar[FixAvailability] = FixAvailability.NONE
    status: ClassVar[RuleStatus] = RuleStatus.STABLE
    severity: ClassVar[Severity] = Severity.ERROR
    explainer: ClassVar[str]
    calculator: ClassVar[str | None] = None
    raises: ClassVar[tuple[str, ...]] = ()
    node_types: ClassVar[tuple[type[ast.AST], ...]] = ()
    needs_traced: ClassVar[bool] = True
    call_names: ClassVar[frozenset[str] | None] = None
    call_attributes: ClassVar[frozenset[str]] = frozenset()
    call_prefixes: ClassVar[tuple[str, ...]] = ()
    call_filter: ClassVar[Callable[[ast.Call, Scope, ModuleIndex], bool] | None] = None
    reference_names: ClassVar[frozenset[str] | None] = None
    reference_attributes: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        code = cls.__dict__.get("code")
        if code is None:
            return
        if not _CODE_PATTERN.match(code):
            raise ValueError(f"{cls.__name__}: rule code {code!r} is not JX/TX followed by 3 digits")
        if not cls.node_types:
            raise ValueError(f"{cls.__name__}: node_types is empty, so the rule would never run")
        if (cls.call_names is not None or cls.call_filter is not None) and ast.Call not in cls.node_types:
            raise ValueError(f"{cls.__name__}: call_names or call_filter is set but the rule does not look at ast.Call")
        for narrowing in ("call_attributes", "call_prefixes"):
            if getattr(cls, narrowing) and cls.call_names is None:
                raise ValueError(f"{cls.__name__}: {narrowing} narrows nothing while call_names is None")
        if cls.reference_names is not None and ast.Attribute not in cls.node_types:
            raise ValueError(f"{cls.__name__}: reference_names is set but the rule does not look at ast.Attribute")
        if cls.reference_attributes and cls.reference_names is None:
            raise ValueError(f"{cls.__name__}: reference_attributes narrows nothing while reference_names is None")
        if "#" not in cls.explainer:
            raise ValueError(f"{cls.__name__}: explainer {cls.explainer!r} must be 'page#section'")

    @classmethod
    def name(cls) -> str:
        """The rule's kebab-case name, derived from its class name."""
        return kebab_case(cls.__name__)

    @classmethod
    def docs(cls) -> str:
        """The rule's documentation: its class docstring, dedented."""
        import inspect

        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def summary(cls) -> str:
        """The first paragraph of the rule's ``## What it does`` section (its message if absent)."""
        match = _WHAT_IT_DOES.search(cls.docs())
        text = match.group(1) if match else getattr(cls, "message", cls.name())
        return " ".join(text.split())

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        """Inspect ``node`` and report findings through ``ctx.report``."""
        raise NotImplementedError
