# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def tiled_copy(x, block=128):
    n, d = x.shape
    spec = pl.BlockSpec((block, d), lambda i: (i, 0))
    return pl.pallas_call(
        copy, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(n // block,), in_specs=[spec], out_specs=spec,
        interpret=True,
    )(x)


x = jnp.arange(384 * 128.0).reshape(384, 128)
print("matches reference:", bool(jnp.allclose(tiled_copy(x), x)))
