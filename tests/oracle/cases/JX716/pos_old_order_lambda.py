# oracle: raises TypeError: 'function' object is not iterable
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

BLOCK = (8, 128)


def double_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


def double(x):
    spec = pl.BlockSpec(lambda i: (i, 0), BLOCK)  # error: JX716
    return pl.pallas_call(
        double_kernel,
        grid=(x.shape[0] // BLOCK[0],),
        in_specs=[spec],
        out_specs=spec,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        interpret=True,
    )(x)


double(jnp.ones((16, 128)))
