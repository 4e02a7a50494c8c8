# oracle: stdout matches reference: False
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def column_sums(x_ref, o_ref):
    o_ref[...] = jnp.sum(x_ref[...], axis=0, keepdims=True)


x = jnp.ones((4, 128))
sums = pl.pallas_call(
    column_sums,
    out_shape=jax.ShapeDtypeStruct((1, 128), x.dtype),
    in_specs=[pl.BlockSpec((8, 128), lambda: (0, 0))],  # error: JX404
    out_specs=pl.BlockSpec((1, 128), lambda: (0, 0)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(sums[0], x.sum(0))))
