# oracle: stdout runs on CPU, so not compiled: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


x = jnp.ones((8, 128))
call = pl.pallas_call(double, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=pltpu.InterpretParams())  # error: JX410
# A compiled TPU kernel raises "Only interpret mode is supported on CPU backend." here.
print("runs on CPU, so not compiled:", bool((call(x) == 2).all()))
