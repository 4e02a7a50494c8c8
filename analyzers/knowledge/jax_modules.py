"""Which ``jax`` submodules ``import jax`` loads, so a fix may write ``jax.lax.x`` after ``import jax``.

``import jax`` imports many public submodules as a side effect (``jax.numpy``, ``jax.lax``,
``jax.tree``), but not all: ``jax.extend`` and ``jax.experimental.pallas`` must be imported by name,
or ``jax.extend.core.Primitive`` is an ``AttributeError``. Listed from ``sys.modules`` after a bare
``import jax`` on JAX 0.10.2.
"""

from __future__ import annotations

JAX_EAGER_SUBMODULES: frozenset[str] = frozenset(
    {
        "jax.api_util",
        "jax.core",
        "jax.custom_batching",
        "jax.custom_derivatives",
        "jax.debug",
        "jax.distributed",
        "jax.dlpack",
        "jax.dtypes",
        "jax.errors",
        "jax.experimental",
        "jax.export",
        "jax.ffi",
        "jax.image",
        "jax.lax",
        "jax.lax.linalg",
        "jax.monitoring",
        "jax.nn",
        "jax.nn.initializers",
        "jax.numpy",
        "jax.numpy.fft",
        "jax.numpy.linalg",
        "jax.ops",
        "jax.profiler",
        "jax.random",
        "jax.scipy",
        "jax.scipy.integrate",
        "jax.sharding",
        "jax.stages",
        "jax.tree",
        "jax.tree_util",
        "jax.typing",
    }
)
"""Submodules reachable as attributes of ``jax`` once ``jax`` itself is imported."""


def loaded_with_jax(module: str) -> bool:
    """Whether ``import jax`` makes ``module`` reachable as an attribute chain from ``jax``.

    Examples:
        >>> loaded_with_jax("jax.numpy"), loaded_with_jax("jax.extend.core"), loaded_with_jax("jax")
        (True, False, True)
    """
    return module == "jax" or module in JAX_EAGER_SUBMODULES
