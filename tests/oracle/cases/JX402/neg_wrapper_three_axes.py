# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def batched_copy(x):
    b, m, n = x.shape
    spec = pl.BlockSpec((None, 8, 128), lambda i, j, k: (i, j, k))
    return pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(b, m // 8, n // 128),
        in_specs=[spec],
        out_specs=spec,
        interpret=True,
    )(x)


x = jnp.arange(2 * 16 * 256.0).reshape(2, 16, 256)
assert (batched_copy(x) == x).all()
