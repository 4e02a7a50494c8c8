"""What JAX, Pallas and torch_xla renamed, moved or removed, and when: the table behind the upgrade rules.

Each entry names the old spelling, the new one, the release that deprecated the old spelling, the
release that removed it (``None`` while it still works) and the source that says so: the
library's changelog or its own deprecation table (the message its ``__getattr__`` gives). Every
entry was checked against the installed releases, JAX 0.10.2 and torch_xla 2.9.0: the old spelling
raises there (removed) or warns (deprecated); entries the packages contradicted were left out
(``docs/architecture.md`` lists them).

Two kinds of entries:

* :class:`NameMigration`: a name reached through a module (``jax.tree_map``, ``pltpu.ANY``, the
  module ``torch_xla.experimental.pjrt``). The upgrade rules find every spelling of it through
  imports and aliases, by its fully qualified name.
* :class:`UsageChange`: a way of calling or configuring something that stopped working while the
  names stayed (``jnp.clip(a_min=...)``, ``jax.jit(f, (1,))``, ``with mesh:``, an environment
  variable). The rule that owns it holds the logic; the entry holds the facts.

The rules report an old spelling as an error when the target release (``jax-version``,
``torch-xla-version``, the project's pin, else :data:`NEWEST_KNOWN`) has removed it, as a warning
when it has only deprecated it, and not at all before the deprecation.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from xlalens.analyzers.core.versions import Version


class Library(enum.Enum):
    """The library an old spelling belongs to, which decides the release it is judged against."""

    JAX = "jax"
    TORCH_XLA = "torch_xla"

    @property
    def title(self) -> str:
        """The library's name as its documentation writes it."""
        return "JAX" if self is Library.JAX else "torch_xla"

    @property
    def setting(self) -> str:
        """The configuration key that sets its target release."""
        return "jax-version" if self is Library.JAX else "torch-xla-version"


NEWEST_KNOWN: Mapping[Library, Version] = {Library.JAX: (0, 10, 2), Library.TORCH_XLA: (2, 9)}
"""The newest release each library's entries were checked against: the target when neither the
configuration nor the project's pins name one."""


class Replacement(enum.Enum):
    """How far the new spelling can stand in for the old one."""

    RENAME = "rename"
    """The same object under a new name: the fix is safe."""
    REWRITE = "rewrite"
    """A replacement that runs but may behave differently: the fix is unsafe."""
    MANUAL = "manual"
    """No drop-in replacement: the fix is shown, never applied."""


@dataclass(frozen=True, slots=True)
class NameMigration:
    """One old name and what replaces it.

    Attributes:
        code: The rule that reports it.
        old: The old fully qualified name (a module when ``module`` is set).
        new: The replacement's fully qualified name, when there is one.
        library: Whose release decides.
        deprecated: The release that deprecated ``old``.
        removed: The release from which reaching ``old`` fails, or ``None`` while it only warns.
        replacement: How safely ``new`` stands in for ``old``.
        failure: What reaching ``old`` raises once removed (``AttributeError``, ``ImportError``).
        source: Where the releases come from.
        instead: What to write instead, for people, when ``new`` alone does not say it.
        module: Whether ``old`` and ``new`` are modules (imports of them are rewritten).
        members: For a module: the names the new module is known to have (``None``: all).
        from_import: The name a ``from module import old`` becomes, when not ``new`` itself
            (``jax.tree_util.tree_map``: ``from jax.tree import map`` would hide ``map``).
        new_since: The first release with ``new``; a target before it gets ``compat`` or no fix.
        compat: A replacement that also works before ``new_since``.
        old_parameters: For a callable whose replacement takes fewer positional arguments: the old
            parameter names in order, so the fix can pass the extra ones by keyword.
        new_positional: How many positional arguments the replacement takes.
        add_keywords: Keyword arguments a call of the replacement needs to mean the same
            (``to='varying'`` for ``pcast``).
        expression: For a constant: the expression that replaces it; ``{module}`` is the old
            name's module as the file spells it (``-{module}.inf`` for ``jnp.NINF``).
        max_positional: How many positional arguments a call may pass and keep the rename safe
            (``None``: any).
        keywords: The keyword arguments a call may pass and keep the rename safe, with their new
            names (``None``: any, unchanged).
        call_suffix: Text appended after a call of the replacement for it to give the old result
            (``.ravel()`` for ``isin`` standing in for ``in1d``).
    """

    code: str
    old: str
    new: str | None
    library: Library
    deprecated: Version
    removed: Version | None
    replacement: Replacement
    failure: str
    source: str
    instead: str = ""
    module: bool = False
    members: frozenset[str] | None = None
    from_import: str | None = None
    new_since: Version | None = None
    compat: str | None = None
    old_parameters: tuple[str, ...] = ()
    new_positional: int | None = None
    add_keywords: str = ""
    expression: str | None = None
    max_positional: int | None = None
    keywords: Mapping[str, str] | None = None
    call_suffix: str = ""


@dataclass(frozen=True, slots=True)
class UsageChange:
    """A way of calling or configuring an API that stopped working while its name stayed.

    Attributes:
        code: The rule that reports it.
        old: The old usage, as the message quotes it.
        new: The new usage.
        library: Whose release decides.
        deprecated: The release that deprecated the old usage.
        removed: The release from which it fails, or ``None`` while it only warns.
        failure: What it raises (or prints) once removed, or while deprecated.
        source: Where the releases come from.
    """

    code: str
    old: str
    new: str
    library: Library
    deprecated: Version
    removed: Version | None
    failure: str
    source: str


_JAX = Library.JAX
_TX = Library.TORCH_XLA
_RENAME = Replacement.RENAME
_REWRITE = Replacement.REWRITE
_MANUAL = Replacement.MANUAL
_JAX_DEPRECATIONS = "JAX's deprecation table (the message its module `__getattr__` gives)"


def _tree_aliases() -> list[NameMigration]:
    entries = []
    for name, deprecated in (
        ("map", (0, 4, 26)),
        ("flatten", (0, 3, 15)),
        ("leaves", (0, 3, 15)),
        ("structure", (0, 3, 15)),
        ("transpose", (0, 3, 15)),
        ("unflatten", (0, 3, 15)),
    ):
        entries.append(
            NameMigration(
                "JX701",
                f"jax.tree_{name}",
                f"jax.tree.{name}",
                _JAX,
                deprecated,
                (0, 6, 0),
                _RENAME,
                "AttributeError",
                "JAX changelog: deprecated in 0.4.26 (`tree_map`; the others since 0.3.15), removed in 0.6.0",
                from_import=f"jax.tree_util.tree_{name}",
                new_since=(0, 4, 25),
                compat=f"jax.tree_util.tree_{name}",
            )
        )
    entries.append(
        NameMigration(
            "JX701",
            "jax.treedef_is_leaf",
            "jax.tree_util.treedef_is_leaf",
            _JAX,
            (0, 3, 15),
            (0, 6, 0),
            _RENAME,
            "AttributeError",
            "JAX changelog 0.6.0 (removed; deprecated since 0.3.15)",
        )
    )
    return entries


_PJIT_PARAMETERS = (
    "fun",
    "in_shardings",
    "out_shardings",
    "static_argnums",
    "static_argnames",
    "donate_argnums",
    "donate_argnames",
    "keep_unused",
    "device",
    "backend",
    "inline",
    "compiler_options",
)


def _jax_names() -> list[NameMigration]:
    return [
        NameMigration(
            "JX702",
            "jax.experimental.pjit.pjit",
            "jax.jit",
            _JAX,
            (0, 8, 0),
            None,
            _RENAME,
            "AttributeError",
            "JAX changelog 0.8.0 (deprecated; still a warning in 0.10.2)",
            old_parameters=_PJIT_PARAMETERS,
            new_positional=1,
        ),
        NameMigration(
            "JX702",
            "jax.experimental.pjit.with_sharding_constraint",
            "jax.lax.with_sharding_constraint",
            _JAX,
            (0, 4, 16),
            (0, 4, 24),
            _RENAME,
            "ImportError",
            "JAX changelog 0.4.16 (deprecated); gone from `jax/experimental/pjit.py` in 0.4.24",
        ),
        NameMigration(
            "JX703",
            "jax.xla_computation",
            None,
            _JAX,
            (0, 4, 30),
            (0, 4, 34),
            _MANUAL,
            "AttributeError",
            "JAX changelog: deprecated in 0.4.30, deleted in 0.4.34",
            instead="`jax.jit(f).lower(*args).compiler_ir('hlo')`",
        ),
        NameMigration(
            "JX704",
            "jax.experimental.maps",
            None,
            _JAX,
            (0, 4, 26),
            (0, 4, 31),
            _MANUAL,
            "ImportError",
            "JAX changelog: `jax.experimental.maps` and `xmap` deprecated in 0.4.26, xmap deleted in 0.4.31",
            instead="`jax.shard_map` (or `jax.vmap` with `spmd_axis_name`)",
            module=True,
        ),
        NameMigration(
            "JX705",
            "jax.experimental.host_callback",
            None,
            _JAX,
            (0, 4, 26),
            (0, 4, 35),
            _MANUAL,
            "ImportError",
            "JAX changelog: deprecated in 0.4.26, its functions removed in 0.4.35, the module in 0.8.0",
            instead="`jax.debug.print`/`jax.debug.callback` (for `id_print`/`id_tap`), `jax.pure_callback` or "
            "`jax.experimental.io_callback` (for `call`)",
            module=True,
        ),
        *(
            NameMigration(
                "JX710",
                f"jax.{name}",
                None,
                _JAX,
                (0, 8, 1),
                (0, 10, 0),
                _MANUAL,
                "AttributeError",
                "JAX changelog: deprecated in 0.8.1, removed from the public API in 0.10.0",
                instead="`jax.device_put` with a `NamedSharding` over a mesh of the devices (see "
                "docs.jax.dev/en/latest/migrate_pmap.html#drop-in-replacements)",
            )
            for name in ("device_put_replicated", "device_put_sharded")
        ),
        *(
            NameMigration(
                "JX711",
                f"jax.ad_checkpoint.{name}",
                f"jax.{name}",
                _JAX,
                (0, 8, 2),
                (0, 10, 0),
                _RENAME,
                "AttributeError",
                _JAX_DEPRECATIONS + ": deprecated in 0.8.2, removed in 0.10.0",
            )
            for name in ("checkpoint", "remat")
        ),
        NameMigration(
            "JX713",
            "jax.lax.pvary",
            "jax.lax.pcast",
            _JAX,
            (0, 8, 2),
            (0, 10, 0),
            _RENAME,
            "AttributeError",
            "JAX changelog 0.8.2 (deprecated); " + _JAX_DEPRECATIONS + " (removed in 0.10.0)",
            instead="`jax.lax.pcast(x, axis_name, to='varying')`",
            new_since=(0, 8, 2),
            add_keywords='to="varying"',
        ),
        NameMigration(
            "JX709",
            "jax.sharding.use_mesh",
            "jax.set_mesh",
            _JAX,
            (0, 7, 1),
            (0, 7, 1),
            _RENAME,
            "AttributeError",
            "JAX changelog 0.7.1 (`jax.sharding.use_mesh` removed in favour of `jax.set_mesh`)",
            new_since=(0, 7, 1),
            compat="jax.sharding.set_mesh",
        ),
        *_jax_core(),
        *_jax_numpy(),
        *(
            NameMigration(
                "JX715",
                f"jax.ops.{name}",
                None,
                _JAX,
                (0, 2, 22),
                (0, 3, 2),
                _RENAME,
                "AttributeError",
                "JAX changelog: deprecated in 0.2.22, removed in 0.3.2",
                instead=f"`x.at[idx].{method}(y)`",
            )
            for name, method in (
                ("index_update", "set"),
                ("index_add", "add"),
                ("index_mul", "multiply"),
                ("index_min", "min"),
                ("index_max", "max"),
            )
        ),
        *_pallas(),
    ]


# (name, replacement or None, replacement kind, deprecated, removed)
_CORE: tuple[tuple[str, str | None, Replacement, Version, Version | None], ...] = (
    *(
        (name, f"jax.extend.core.{name}", _RENAME, (0, 4, 38), (0, 6, 0))
        for name in ("Primitive", "Jaxpr", "ClosedJaxpr", "JaxprEqn", "Var", "Literal", "Token", "jaxpr_as_fun")
    ),
    *(
        (name, None, _MANUAL, (0, 4, 38), (0, 6, 0))
        for name in ("raise_to_shaped", "EvalTrace", "MapPrimitive", "full_lower", "get_referent", "reset_trace_state")
    ),
    ("call_p", "jax.extend.core.primitives.call_p", _RENAME, (0, 4, 38), (0, 7, 0)),
    ("closed_call_p", "jax.extend.core.primitives.closed_call_p", _RENAME, (0, 4, 38), (0, 7, 0)),
    ("ConcretizationTypeError", "jax.errors.ConcretizationTypeError", _RENAME, (0, 4, 38), (0, 7, 0)),
    *((name, None, _MANUAL, (0, 4, 38), (0, 7, 0)) for name in ("axis_frame", "trace_state_clean", "get_type")),
    ("get_aval", "jax.typeof", _REWRITE, (0, 8, 2), (0, 10, 0)),
    *(
        (name, f"jax.extend.core.{name}", _RENAME, (0, 8, 2), (0, 10, 0))
        for name in (
            "mapped_aval",
            "unmapped_aval",
            "subjaxprs",
            "TraceTag",
            "AbstractToken",
            "set_current_trace",
            "take_current_trace",
            "call_impl",
        )
    ),
    ("traverse_jaxpr_params", None, _MANUAL, (0, 8, 2), (0, 10, 0)),
    *(
        (name, f"jax.extend.core.{name}", _RENAME, (0, 10, 0), (0, 11, 0))
        for name in (
            "new_jaxpr_eqn",
            "DropVar",
            "Effect",
            "Effects",
            "no_effects",
            "check_jaxpr",
            "concrete_or_error",
            "find_top_trace",
            "valid_jaxtype",
            "CallPrimitive",
            "DebugInfo",
            "gensym",
            "JaxprTypeError",
        )
    ),
    ("InconclusiveDimensionOperation", "jax.errors.InconclusiveDimensionOperation", _RENAME, (0, 10, 0), (0, 11, 0)),
    *(
        (name, None, _MANUAL, (0, 10, 0), (0, 11, 0))
        for name in ("is_concrete", "is_constant_dim", "pytype_aval_mappings", "call", "abstract_token")
    ),
)


def _jax_core() -> list[NameMigration]:
    entries = []
    for name, new, replacement, deprecated, removed in _CORE:
        if new is None:
            instead = "`jax.extend` and public APIs (it has no public replacement)"
        elif new == "jax.typeof":
            instead = "`jax.typeof(x)` (the abstract value, like the old `get_aval`)"
        else:
            instead = ""
        entries.append(
            NameMigration(
                "JX712",
                f"jax.core.{name}",
                new,
                _JAX,
                deprecated,
                removed,
                replacement,
                "AttributeError",
                f"JAX changelog and {_JAX_DEPRECATIONS}; removal in 0.11.0 per the changelog"
                if removed == (0, 11, 0)
                else f"JAX changelog and {_JAX_DEPRECATIONS}",
                instead=instead,
            )
        )
    return entries


def _jax_numpy() -> list[NameMigration]:
    renames = (
        ("fix", "jax.numpy.trunc", _RENAME, (0, 9, 0), (0, 10, 0)),
        ("round_", "jax.numpy.round", _RENAME, (0, 4, 32), (0, 4, 38)),
        ("row_stack", "jax.numpy.vstack", _RENAME, (0, 4, 16), (0, 4, 24)),
        ("trapz", "jax.scipy.integrate.trapezoid", _RENAME, (0, 4, 16), (0, 4, 24)),
        ("in1d", "jax.numpy.isin", _RENAME, (0, 4, 16), (0, 4, 24)),
        ("alltrue", "jax.numpy.all", _RENAME, (0, 4, 12), (0, 4, 16)),
        ("sometrue", "jax.numpy.any", _RENAME, (0, 4, 12), (0, 4, 16)),
        ("product", "jax.numpy.prod", _RENAME, (0, 4, 12), (0, 4, 16)),
        ("cumproduct", "jax.numpy.cumprod", _RENAME, (0, 4, 12), (0, 4, 16)),
        ("DeviceArray", "jax.Array", _RENAME, (0, 4, 7), (0, 4, 14)),
        ("NINF", None, _RENAME, (0, 4, 16), (0, 4, 24)),
        ("NZERO", None, _RENAME, (0, 4, 16), (0, 4, 24)),
        ("PZERO", None, _RENAME, (0, 4, 16), (0, 4, 24)),
        ("issubsctype", None, _MANUAL, (0, 4, 16), (0, 4, 24)),
        ("msort", None, _MANUAL, (0, 4, 1), (0, 4, 9)),
    )
    instead = {
        "in1d": "`jnp.isin(a, b).ravel()` (`in1d` flattened its result; `isin` keeps the shape)",
        "NINF": "`-jnp.inf`",
        "NZERO": "`-0.0`",
        "PZERO": "`0.0`",
        "issubsctype": "`jnp.issubdtype(x.dtype, t)`",
        "msort": "`jnp.sort(a, axis=0)`",
    }
    expressions = {"NINF": "-{module}.inf", "NZERO": "-0.0", "PZERO": "0.0"}
    entries = []
    for name, new, replacement, deprecated, removed in renames:
        entries.append(
            NameMigration(
                "JX714",
                f"jax.numpy.{name}",
                new,
                _JAX,
                deprecated,
                removed,
                replacement,
                "AttributeError",
                f"JAX changelog: deprecated in {'.'.join(map(str, deprecated))}, removed in "
                f"{'.'.join(map(str, removed))} (following NumPy)",
                instead=instead.get(name, ""),
                expression=expressions.get(name),
                call_suffix=".ravel()" if name == "in1d" else "",
                keywords={"assume_unique": "assume_unique", "invert": "invert"} if name == "in1d" else None,
            )
        )
    return entries


def _pallas() -> list[NameMigration]:
    tpu = "jax.experimental.pallas.tpu"
    pallas = "jax.experimental.pallas"
    renamed_in_tpu = "Pallas changelog 0.7.0 (renamed; old names deprecated); gone from `pallas/tpu.py` in 0.7.2"
    renamed = [
        NameMigration(
            "JX717", old, new, _JAX, (0, 7, 0), (0, 7, 2), _RENAME, "AttributeError", source, new_since=(0, 7, 0)
        )
        for old, new, source in (
            (f"{tpu}.TPUCompilerParams", f"{tpu}.CompilerParams", renamed_in_tpu),
            (f"{tpu}.TPUMemorySpace", f"{tpu}.MemorySpace", renamed_in_tpu),
            # `MemorySpace` has no `ANY`: the old class's `ANY` went to `pl.ANY` (checked with JAX 0.10.2).
            (
                f"{tpu}.TPUMemorySpace.ANY",
                f"{pallas}.ANY",
                "Pallas changelog 0.7.0 (renamed; old names deprecated); `pltpu.MemorySpace` has no `ANY`",
            ),
            (
                f"{pallas}.triton.TritonCompilerParams",
                f"{pallas}.triton.CompilerParams",
                "Pallas changelog 0.7.0 (renamed; old name deprecated); gone from `pallas/triton.py` in 0.7.2",
            ),
        )
    ]
    moved: list[tuple[str, str, Version, Version | None, Version | None, str]] = [
        ("ANY", "ANY", (0, 8, 2), (0, 10, 0), None, "Pallas changelog 0.10.0 (removed; deprecated since 0.8.2)"),
        (
            "MemorySpace.ANY",
            "ANY",
            (0, 8, 2),
            (0, 10, 0),
            None,
            "Pallas changelog 0.10.0 (removed with `pltpu.ANY`)",
        ),
        ("delay", "delay", (0, 8, 1), (0, 10, 0), (0, 8, 1), "Pallas changelog 0.10.0 (removed; deprecated in 0.8.1)"),
        *(
            (name, name, (0, 10, 0), None, (0, 10, 0), "Pallas changelog 0.10.0 (deprecated in `pltpu`)")
            for name in ("semaphore", "DeviceIdType", "semaphore_signal", "semaphore_wait", "semaphore_read")
        ),
        ("HOST", "HOST", (0, 10, 2), None, (0, 10, 2), "Pallas changelog 0.10.2 (deprecated in `pltpu`)"),
        (
            "MemorySpace.HOST",
            "HOST",
            (0, 10, 2),
            (0, 10, 2),
            (0, 10, 2),
            "Pallas changelog 0.10.2 (deprecated); an AttributeError in 0.10.2 itself",
        ),
    ]
    for old, new, deprecated, removed, since, source in moved:
        renamed.append(
            NameMigration(
                "JX718",
                f"{tpu}.{old}",
                f"{pallas}.{new}",
                _JAX,
                deprecated,
                removed,
                _RENAME,
                "AttributeError",
                source,
                new_since=since,
            )
        )
    return renamed


_RUNTIME_MEMBERS = frozenset(
    {
        "addressable_device_count",
        "device_type",
        "global_device_count",
        "global_ordinal",
        "local_device_count",
        "local_ordinal",
        "local_process_count",
        "process_count",
        "process_index",
        "set_device_type",
        "world_size",
    }
)
"""What ``torch_xla.experimental.pjrt`` forwarded to ``torch_xla.runtime`` under the same name and
``torch_xla.runtime`` 2.9 still has (``using_pjrt`` and ``xla_device`` are gone)."""


def _torch_xla_names() -> list[NameMigration]:
    xm = "torch_xla.core.xla_model"
    return [
        NameMigration(
            "TX701",
            f"{xm}.mark_step",
            "torch_xla.sync",
            _TX,
            (2, 8),
            None,
            _RENAME,
            "AttributeError",
            '`@deprecated("Use torch_xla.sync instead")` on `xla_model.mark_step` since torch_xla 2.8',
            new_since=(2, 4),
        ),
        NameMigration(
            "TX702",
            f"{xm}.xla_device",
            "torch_xla.device",
            _TX,
            (2, 8),
            None,
            _RENAME,
            "AttributeError",
            '`@deprecated("Use torch_xla.device instead")` on `xla_model.xla_device` since torch_xla 2.8',
            new_since=(2, 3),
            max_positional=1,
            keywords={"n": "index"},
        ),
        NameMigration(
            "TX703",
            f"{xm}.xrt_world_size",
            "torch_xla.runtime.world_size",
            _TX,
            (2, 5),
            (2, 7),
            _RENAME,
            "AttributeError",
            "torch_xla 2.5 `xla_model.py` (deprecated: 'xrt_world_size() will be removed in release 2.7'); "
            "absent from 2.7",
            new_since=(2, 1),
            max_positional=0,
            keywords={},
        ),
        NameMigration(
            "TX703",
            f"{xm}.get_ordinal",
            "torch_xla.runtime.global_ordinal",
            _TX,
            (2, 5),
            (2, 7),
            _RENAME,
            "AttributeError",
            "torch_xla 2.5 `xla_model.py` (deprecated: 'xla_model.get_ordinal() will be removed in release 2.7'); "
            "absent from 2.7",
            new_since=(2, 1),
            max_positional=0,
            keywords={},
        ),
        NameMigration(
            "TX704",
            "torch_xla.experimental.xla_sharding",
            "torch_xla.distributed.spmd",
            _TX,
            (2, 2),
            (2, 5),
            _RENAME,
            "ImportError",
            "torch_xla 2.2 `experimental/xla_sharding.py` (a DeprecationWarning pointing to "
            "`torch_xla.distributed.spmd`); the module is absent from 2.5",
            module=True,
            new_since=(2, 2),
        ),
        NameMigration(
            "TX705",
            "torch_xla.experimental.pjrt",
            "torch_xla.runtime",
            _TX,
            (2, 1),
            (2, 5),
            _RENAME,
            "ImportError",
            "torch_xla 2.1 `experimental/pjrt.py` (every name a deprecated alias of `torch_xla.runtime`); "
            "the module is absent from 2.5",
            module=True,
            members=_RUNTIME_MEMBERS,
            new_since=(2, 1),
        ),
    ]


NAME_MIGRATIONS: tuple[NameMigration, ...] = (*_tree_aliases(), *_jax_names(), *_torch_xla_names())
"""Every old name the upgrade rules know, JAX's and torch_xla's."""

USAGE_CHANGES: Mapping[str, UsageChange] = {
    "experimental-shard-map": UsageChange(
        "JX508",
        "`jax.experimental.shard_map.shard_map`",
        "`jax.shard_map`",
        _JAX,
        (0, 8, 0),
        None,
        "DeprecationWarning",
        "JAX changelog 0.8.0",
    ),
    "array-device-method": UsageChange(
        "JX706",
        "`x.device()`",
        "`x.device` (a property) or `x.devices()`",
        _JAX,
        (0, 4, 21),
        (0, 4, 27),
        "TypeError",
        "JAX changelog: deprecated in 0.4.21, removed in 0.4.27 (`device` became a property)",
    ),
    "array-device-buffer": UsageChange(
        "JX706",
        "`x.device_buffer` / `x.device_buffers`",
        "`x.addressable_data(0)` / `[s.data for s in x.addressable_shards]`",
        _JAX,
        (0, 4, 22),
        (0, 4, 27),
        "AttributeError",
        "JAX changelog: deprecated in 0.4.22, removed in 0.4.27",
    ),
    "clip-keywords": UsageChange(
        "JX707",
        "`jnp.clip(a=..., a_min=..., a_max=...)`",
        "`jnp.clip(x, min=..., max=...)`",
        _JAX,
        (0, 4, 27),
        (0, 10, 0),
        "TypeError",
        "JAX changelog: deprecated in 0.4.27, removed in 0.10.0",
    ),
    "jit-positional-options": UsageChange(
        "JX708",
        "`jax.jit(f, ...)` with options by position (or `fun=` by keyword)",
        "`jax.jit(f, static_argnums=..., ...)`",
        _JAX,
        (0, 6, 0),
        (0, 7, 0),
        "TypeError",
        "JAX changelog: a DeprecationWarning in 0.6.0, an error from 0.7.0",
    ),
    "mesh-context-manager": UsageChange(
        "JX709",
        "`with mesh:`",
        "`with jax.set_mesh(mesh):`",
        _JAX,
        (0, 10, 1),
        None,
        "DeprecationWarning",
        "JAX changelog 0.10.1",
    ),
    "blockspec-argument-order": UsageChange(
        "JX716",
        "`pl.BlockSpec(index_map, block_shape)`",
        "`pl.BlockSpec(block_shape, index_map)`",
        _JAX,
        (0, 4, 31),
        (0, 4, 34),
        "TypeError",
        "Pallas changelog: deprecated in 0.4.31, no longer supported from 0.4.34",
    ),
    "bf16-environment-variables": UsageChange(
        "TX706",
        "`XLA_USE_BF16=1` / `XLA_DOWNCAST_BF16=1`",
        "`model.to(torch.bfloat16)` (and bfloat16 inputs)",
        _TX,
        (2, 4),
        None,
        "a notice printed at start-up ('XLA_USE_BF16 will be deprecated after the 2.6 release')",
        "pytorch/xla#7150 (deprecated for 2.4); `torch_xla/csrc/dtype.cpp` still honours and announces it in 2.9",
    ),
    "torchxla-trace-once-backend": UsageChange(
        "TX707",
        '`backend="torchxla_trace_once"`',
        '`backend="openxla"` (`"openxla_eval"` for the same inference-only behaviour)',
        _TX,
        (2, 1),
        (2, 4),
        "InvalidBackend",
        "pytorch/pytorch#106489 (renamed to `openxla` for 2.1, old name deprecated) and #122128 (removed, "
        "first in the release after March 2024); `torch._dynamo.exc.InvalidBackend` in 2.9",
    ),
}
"""The usage changes, by the key their rule looks them up with."""


def migrations_for(code: str) -> tuple[NameMigration, ...]:
    """The name migrations a rule reports.

    Examples:
        >>> [m.old for m in migrations_for("JX711")]
        ['jax.ad_checkpoint.checkpoint', 'jax.ad_checkpoint.remat']
    """
    return tuple(entry for entry in NAME_MIGRATIONS if entry.code == code)


def by_old_name() -> Mapping[str, NameMigration]:
    """Every name migration by its old qualified name.

    Examples:
        >>> by_old_name()["jax.tree_map"].new
        'jax.tree.map'
    """
    return _BY_OLD


_BY_OLD: Mapping[str, NameMigration] = {entry.old: entry for entry in NAME_MIGRATIONS}
