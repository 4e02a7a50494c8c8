# oracle: raises TypeError: batched_copy.<locals>.<lambda>() takes 2 positional arguments but 3 were given
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def batched_copy(x):
    b, m, n = x.shape
    return pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(b, m // 8, n // 128),
        in_specs=[pl.BlockSpec((None, 8, 128), lambda i, j: (i, j, 0))],  # error: JX402
        out_specs=pl.BlockSpec((None, 8, 128), lambda i, j, k: (i, j, k)),
        interpret=True,
    )(x)


batched_copy(jnp.ones((2, 16, 256)))
