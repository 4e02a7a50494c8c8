# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def block_sum(x_ref, o_ref):
    o_ref[...] = jnp.sum(x_ref[...], axis=0, keepdims=True)


def mean_rows(x, block=128):
    n, d = x.shape
    steps = pl.cdiv(n, block)
    sums = pl.pallas_call(
        block_sum,
        out_shape=jax.ShapeDtypeStruct((steps, d), x.dtype),
        grid=(steps,),
        in_specs=[pl.BlockSpec((block, d), lambda i: (i, 0))],  # error: JX404
        out_specs=pl.BlockSpec((1, d), lambda i: (i, 0)),
        interpret=True,
    )(x)
    return sums.sum(0) / n


x = jnp.ones((500, 128))
print("matches reference:", bool(jnp.allclose(mean_rows(x), x.mean(0))))
