# oracle: stdout doubled: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


x = jnp.ones((8, 128))
y = pl.pallas_call(double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
print("doubled:", bool((y == 2).all()))
