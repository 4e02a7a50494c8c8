# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

ROWS = 1000
BLOCK = 192


def column_sums(x_ref, o_ref):
    rows = pl.program_id(0) * BLOCK + jax.lax.broadcasted_iota(jnp.int32, x_ref.shape, 0)
    o_ref[...] = jnp.sum(jnp.where(rows < ROWS, x_ref[...], 0.0), axis=0, keepdims=True)


x = jnp.ones((ROWS, 128))
partial = pl.pallas_call(
    column_sums,
    out_shape=jax.ShapeDtypeStruct((6, 128), x.dtype),
    grid=(pl.cdiv(ROWS, BLOCK),),
    in_specs=[pl.BlockSpec((BLOCK, 128), lambda i: (i, 0))],  # noqa: JX404 -- the kernel masks the tail
    out_specs=pl.BlockSpec((1, 128), lambda i: (i, 0)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(partial.sum(0), x.sum(0))))
