"""A check leaves nothing of the file behind: the language server checks on every keystroke."""

from __future__ import annotations

import gc

from xlalens.analyzers import check_source
from xlalens.analyzers.semantics.names import ModuleIndex

JAX_AND_TORCH_XLA = """\
import jax
import jax.numpy as jnp
import torch
import torch_xla
import torch_xla.core.xla_model as xm


@jax.jit
def step(x):
    if x.sum() > 0:
        return x
    return -x


def train(xs, model, optimizer, loader):
    for i in range(100):
        f = jax.jit(lambda v: v * i)
        f(xs[:i])
    device = torch_xla.device()
    model.to(device)
    for batch in loader:
        loss = model(batch.to(device))
        loss.backward()
        optimizer.step()
        print(loss.item())
"""


def _live_indexes() -> int:
    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, ModuleIndex))


def test_module_indexes_are_freed_after_each_check() -> None:
    before = _live_indexes()
    for _ in range(3):
        assert check_source(JAX_AND_TORCH_XLA, "train.py")
    assert _live_indexes() == before
