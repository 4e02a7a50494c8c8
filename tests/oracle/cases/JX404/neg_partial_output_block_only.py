# oracle: stdout matches reference: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def fill(o_ref):
    o_ref[...] = jnp.full(o_ref.shape, 3.0, o_ref.dtype)


y = pl.pallas_call(
    fill,
    out_shape=jax.ShapeDtypeStruct((1000, 128), jnp.float32),
    grid=(pl.cdiv(1000, 192),),
    out_specs=pl.BlockSpec((192, 128), lambda i: (i, 0)),
    interpret=True,
)()
print("matches reference:", bool((y == 3.0).all()))
