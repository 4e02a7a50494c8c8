# oracle: stdout Mosaic kernel: True
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


x = jax.ShapeDtypeStruct((8, 128), jnp.float32)
call = pl.pallas_call(double, out_shape=x, interpret=False)
module = jax.export.export(jax.jit(call), platforms=["tpu"])(x).mlir_module()
print("Mosaic kernel:", "tpu_custom_call" in module)
