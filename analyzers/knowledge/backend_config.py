"""When JAX reads each setting: at ``import jax``, or when the backend starts (the first device query or array).

A setting changed after the moment JAX reads it does nothing, or raises, depending on the setting. Each
row was checked with JAX 0.10.2 on CPU (``--xla_force_host_platform_device_count=8`` in the environment):

* ``XLA_FLAGS`` is read when the backend starts: set after ``import jax`` but before the first device
  query it takes effect (4 devices); set after ``jax.devices()``, ``jnp.ones``, ``jax.random.key``,
  ``jax.process_index`` or ``jax.default_backend`` it is ignored (still 8). ``jax.jit(f)`` without a
  call, ``jax.eval_shape`` and ``jnp.dtype``/``jnp.finfo`` start nothing.
* ``JAX_PLATFORMS``, ``JAX_ENABLE_X64``, ``JAX_DEBUG_NANS`` and ``JAX_DISABLE_JIT`` are read when
  ``jax`` is imported: writing them to ``os.environ`` afterwards changes nothing.
* ``jax.config.update("jax_platforms", ...)`` after the backend started is ignored;
  ``jax.config.update("jax_num_cpu_devices", n)`` then raises ``RuntimeError``, and so does
  ``jax.distributed.initialize()``. ``jax.config.update("jax_enable_x64", True)`` works at any time
  (for arrays created afterwards), so it is not listed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ReadAt(enum.Enum):
    """The moment after which a setting no longer takes effect."""

    IMPORT = "import"
    BACKEND_START = "backend start"


@dataclass(frozen=True, slots=True)
class LateSetting:
    """What happens to a setting changed too late.

    Attributes:
        read_at: When JAX reads it.
        raises: The exception class raised when it is changed after that, or ``""`` when it is ignored.
        effect: What it would have changed, for messages.
    """

    read_at: ReadAt
    raises: str
    effect: str


_ENVIRONMENT: dict[str, LateSetting] = {}
_CONFIG_OPTIONS: dict[str, LateSetting] = {}
_CALLS: dict[str, LateSetting] = {}

BACKEND_STARTERS = frozenset(
    {
        "jax.devices",
        "jax.local_devices",
        "jax.device_count",
        "jax.local_device_count",
        "jax.default_backend",
        "jax.process_index",
        "jax.process_count",
        "jax.device_put",
        "jax.make_mesh",
    }
)
"""Calls that start the backend, besides array-creating calls of the JAX array modules."""

ARRAY_MODULES = ("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn.", "jax.scipy.")
"""Modules whose calls create or compute arrays, and so start the backend."""

DTYPE_ONLY = frozenset(
    {
        "jax.numpy.dtype",
        "jax.numpy.finfo",
        "jax.numpy.iinfo",
        "jax.numpy.issubdtype",
        "jax.numpy.isdtype",
        "jax.numpy.result_type",
        "jax.numpy.promote_types",
        "jax.numpy.can_cast",
    }
)
"""Calls of the array modules that only compute with dtypes and start nothing."""


def _register(table: dict[str, LateSetting], kind: str, name: str, setting: LateSetting) -> None:
    existing = table.get(name)
    if existing is not None and existing != setting:
        raise ValueError(f"{kind} {name} is already registered as {existing}; known: {', '.join(sorted(table))}")
    table[name] = setting


def register_environment_variable(name: str, setting: LateSetting) -> None:
    """Record when JAX or XLA reads the environment variable ``name``.

    Raises:
        ValueError: if ``name`` is already registered differently.
    """
    _register(_ENVIRONMENT, "environment variable", name, setting)


def register_config_option(name: str, setting: LateSetting) -> None:
    """Record when the backend reads the ``jax.config`` option ``name``.

    Raises:
        ValueError: if ``name`` is already registered differently.
    """
    _register(_CONFIG_OPTIONS, "config option", name, setting)


def register_call(qualname: str, setting: LateSetting) -> None:
    """Record a call that must come before the backend starts.

    Raises:
        ValueError: if ``qualname`` is already registered differently.
    """
    _register(_CALLS, "call", qualname, setting)


def environment_variable(name: str | None) -> LateSetting | None:
    """When the environment variable ``name`` is read, if that matters.

    Examples:
        >>> environment_variable("XLA_FLAGS").read_at, environment_variable("JAX_PLATFORMS").read_at
        (<ReadAt.BACKEND_START: 'backend start'>, <ReadAt.IMPORT: 'import'>)
        >>> environment_variable("WANDB_MODE") is None
        True
    """
    return _ENVIRONMENT.get(name or "")


def config_option(name: str | None) -> LateSetting | None:
    """When the ``jax.config`` option ``name`` stops taking effect, if it does.

    Examples:
        >>> config_option("jax_num_cpu_devices").raises, config_option("jax_enable_x64") is None
        ('RuntimeError', True)
    """
    return _CONFIG_OPTIONS.get(name or "")


def late_call(qualname: str | None) -> LateSetting | None:
    """What a call that must precede the backend does when it comes after it.

    Examples:
        >>> late_call("jax.distributed.initialize").raises
        'RuntimeError'
    """
    return _CALLS.get(qualname or "")


def starts_backend(qualname: str | None) -> bool:
    """Whether calling ``qualname`` starts the backend.

    Examples:
        >>> starts_backend("jax.numpy.ones"), starts_backend("jax.devices"), starts_backend("jax.numpy.finfo")
        (True, True, False)
        >>> starts_backend("jax.jit")
        False
    """
    if qualname is None:
        return False
    if qualname in BACKEND_STARTERS:
        return True
    return qualname.startswith(ARRAY_MODULES) and qualname not in DTYPE_ONLY


def _register_all() -> None:
    register_environment_variable(
        "XLA_FLAGS", LateSetting(ReadAt.BACKEND_START, "", "the XLA flags (device count, dumps, optimisation)")
    )
    register_environment_variable("JAX_PLATFORMS", LateSetting(ReadAt.IMPORT, "", "the platforms JAX uses"))
    register_environment_variable("JAX_ENABLE_X64", LateSetting(ReadAt.IMPORT, "", "64-bit types"))
    register_environment_variable("JAX_DEBUG_NANS", LateSetting(ReadAt.IMPORT, "", "NaN checking"))
    register_environment_variable("JAX_DISABLE_JIT", LateSetting(ReadAt.IMPORT, "", "disabling jit"))
    register_config_option("jax_platforms", LateSetting(ReadAt.BACKEND_START, "", "the platforms JAX uses"))
    register_config_option(
        "jax_num_cpu_devices", LateSetting(ReadAt.BACKEND_START, "RuntimeError", "the number of CPU devices")
    )
    register_call(
        "jax.distributed.initialize",
        LateSetting(ReadAt.BACKEND_START, "RuntimeError", "the multi-process setup"),
    )


_register_all()
