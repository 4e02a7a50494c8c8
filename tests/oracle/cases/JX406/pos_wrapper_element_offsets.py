# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def tiled_copy(x, block=128):
    n, d = x.shape
    return pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(n // block,),
        in_specs=[pl.BlockSpec((block, d), lambda i: (i * block, 0))],  # error: JX406
        out_specs=pl.BlockSpec((block, d), lambda i: (i, 0)),
        interpret=True,
    )(x)


x = jnp.arange(384 * 128.0).reshape(384, 128)
print("matches reference:", bool(jnp.allclose(tiled_copy(x), x)))
