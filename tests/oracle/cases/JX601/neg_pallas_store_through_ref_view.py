# oracle: stdout rows [1. 1. 1. 1. 0. 0. 0. 0.]
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def fill_first_half(x_ref, o_ref):
    o_ref[...] = jnp.zeros_like(o_ref)
    o_ref.at[0:6].at[0:4][...] = jnp.ones((4,), jnp.float32)  # a view of a view of the ref: a store


out = pl.pallas_call(fill_first_half, out_shape=jax.ShapeDtypeStruct((8,), jnp.float32), interpret=True)(jnp.ones(8))
print("rows", out)
