"""JX410: ``interpret=True`` left on a Pallas kernel written for a TPU or GPU, outside tests."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity, shorten
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.pallas.values import PALLAS_CALL_NAMES, CompilerParamsValue
from xlalens.analyzers.rules.jax._pallas import pallas_site
from xlalens.analyzers.semantics.names import ModuleIndex
from xlalens.analyzers.semantics.values import Value

_TEST_FOLDERS = frozenset({"tests", "test", "testing"})
_TEST_MODULES = ("pytest", "unittest", "absl.testing", "jax._src.test_util", "hypothesis")


def is_test_code(path: str, index: ModuleIndex) -> bool:
    """Whether a file is test code: ``test_*.py``, ``*_test.py``, ``conftest.py``, a file directly in a
    ``tests`` folder, or a module that imports a test framework.

    Examples:
        >>> import ast
        >>> plain = ModuleIndex(ast.parse("import jax"), [])
        >>> is_test_code("pkg/tests/helpers.py", plain), is_test_code("ops/matmul_test.py", plain)
        (True, True)
        >>> with_pytest = ModuleIndex(ast.parse("import pytest"), [])
        >>> is_test_code("ops/matmul.py", plain), is_test_code("ops/matmul.py", with_pytest)
        (False, True)
    """
    parts = path.replace("\\", "/").split("/")
    name = parts[-1]
    if name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py":
        return True
    if len(parts) > 1 and parts[-2] in _TEST_FOLDERS:
        return True
    return any(
        binding.qualname == module or (binding.qualname or "").startswith(module + ".")
        for bindings in index.module_scope.bindings.values()
        for binding in bindings
        for module in _TEST_MODULES
    )


@register_rule
class InterpretModeLeftOn(Rule):
    """## What it does
    Finds `pl.pallas_call(…, interpret=True)` (or `interpret=pltpu.InterpretParams(…)`) in a file
    that is not a test, when the kernel is written for an accelerator: the file imports
    `jax.experimental.pallas.tpu` or a GPU Pallas backend, the call passes compiler params, or the
    configuration sets `target`.

    ## Why is this bad?
    Interpret mode runs the kernel body with ordinary JAX operations, one grid step after
    another, instead of compiling it with Mosaic (TPU) or Triton/Mosaic GPU. It is how kernels are
    tested on a CPU, and much slower than the compiled kernel on the accelerator; it also skips
    the checks only the compiler makes (block shapes, VMEM). Left on in library or training code,
    the kernel silently never runs as written.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu


    def double(x_ref, o_ref):
        o_ref[...] = x_ref[...] * 2


    x = jnp.ones((8, 128))
    y = pl.pallas_call(double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu


    def double(x_ref, o_ref):
        o_ref[...] = x_ref[...] * 2


    x = jnp.ones((8, 128))
    y = pl.pallas_call(
        double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=jax.default_backend() == "cpu"
    )(x)
    ```

    Pass the flag in from the caller or derive it from the backend. Test code is not reported:
    `test_*.py`, `*_test.py`, `conftest.py`, files directly in a `tests` folder, and modules
    that import pytest, unittest or absltest.

    ## References
    - JAX docs: "Pallas Quickstart", section on interpret mode (`docs/pallas/quickstart.md`)
    - JAX docs: "TPU interpret mode" (`pltpu.InterpretParams`)
    """

    code = "JX410"
    message = "interpret=True left on a kernel written for an accelerator"
    explainer = "pallas-blockspec#interpret-mode"
    severity = Severity.INFO
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = PALLAS_CALL_NAMES

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        site = pallas_site(ctx, node)
        if site is None or is_test_code(ctx.path, ctx.index):
            return
        instance = site.instances[0]
        if instance.interpreted is None and len(site.instances) > 1:
            # `interpret=opts.interpret` on a parameter: the calls of the function in the file decide,
            # and all of them must turn it on.
            callers = site.instances[1:]
            instance = callers[0] if all(c.interpreted is True for c in callers) else instance
        if instance.interpreted is not True:
            return
        model = site.model
        params: Value = instance.value(instance.keyword("compiler_params"))
        accelerator = model.imports_tpu or model.imports_gpu or model.target in ("tpu", "gpu")
        if not (accelerator or isinstance(params, CompilerParamsValue)):
            return
        keyword = next(k for k in site.node.keywords if k.arg == "interpret")
        ctx.report(
            keyword,
            f"`{shorten(ctx.segment(keyword), 40)}` runs this kernel in the Pallas interpreter, not compiled",
            detail=f"With `{ctx.segment(keyword)}`, on the accelerator the kernel is emulated with ordinary JAX "
            "operations, one grid step at a time, instead of compiled (and the compiler's block shape and VMEM "
            "checks never run). Keep interpret mode in tests or derive it from the backend.",
        )
