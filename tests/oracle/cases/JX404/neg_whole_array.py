# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def column_sums(x_ref, o_ref):
    o_ref[...] = jnp.sum(x_ref[...], axis=0, keepdims=True)


x = jnp.ones((1000, 100))
sums = pl.pallas_call(
    column_sums,
    out_shape=jax.ShapeDtypeStruct((1, 100), x.dtype),
    in_specs=[pl.BlockSpec(None, lambda: (0, 0))],
    out_specs=pl.BlockSpec(None, lambda: (0, 0)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(sums[0], x.sum(0))))
