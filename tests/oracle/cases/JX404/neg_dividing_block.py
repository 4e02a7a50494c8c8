# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def column_sums(x_ref, o_ref):
    o_ref[...] = jnp.sum(x_ref[...], axis=0, keepdims=True)


x = jnp.ones((1000, 128))
partial = pl.pallas_call(
    column_sums,
    out_shape=jax.ShapeDtypeStruct((5, 128), x.dtype),
    grid=(pl.cdiv(1000, 200),),
    in_specs=[pl.BlockSpec((200, 128), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((1, 128), lambda i: (i, 0)),
    interpret=True,
)(x)
print("matches reference:", bool(jnp.allclose(partial.sum(0), x.sum(0))))
