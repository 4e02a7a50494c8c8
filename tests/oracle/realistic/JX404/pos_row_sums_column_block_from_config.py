# oracle: stdout matches reference: False
import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


@dataclasses.dataclass(frozen=True)
class ReduceConfig:
    block_rows: int = 8
    block_cols: int = 128


def row_sum_kernel(x_ref, o_ref):
    @pl.when(pl.program_id(1) == 0)
    def _():
        o_ref[...] = jnp.zeros_like(o_ref)

    o_ref[...] += jnp.sum(x_ref[...], axis=1, keepdims=True)


def row_sums(x, cfg):
    rows, cols = x.shape
    return pl.pallas_call(
        row_sum_kernel,
        out_shape=jax.ShapeDtypeStruct((rows, 1), x.dtype),
        grid=(rows // cfg.block_rows, pl.cdiv(cols, cfg.block_cols)),
        in_specs=[pl.BlockSpec((cfg.block_rows, cfg.block_cols), lambda i, k: (i, k))],  # error: JX404
        out_specs=pl.BlockSpec((cfg.block_rows, 1), lambda i, k: (i, 0)),
        interpret=True,
    )(x)


x = jnp.ones((32, 300))
print("matches reference:", bool(jnp.allclose(row_sums(x, ReduceConfig())[:, 0], x.sum(axis=1))))
