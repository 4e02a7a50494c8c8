# oracle: runs
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax._src.pallas.mosaic import tpu_info

# Rank-1 blocks need the chip's figures when lowering for TPU on a CPU machine: a v5e's.
tpu_info.registry["cpu"] = lambda: tpu_info.get_tpu_info_for_chip(tpu_info.ChipVersion.TPU_V5E, 1)

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def chunks(v):
    spec = pl.BlockSpec((256,), lambda i: (i,))
    return pl.pallas_call(copy, out_shape=jax.ShapeDtypeStruct(v.shape, v.dtype), grid=(16,), in_specs=[spec], out_specs=spec)(v)


v = jax.ShapeDtypeStruct((4096,), jnp.bfloat16)
jax.export.export(jax.jit(chunks), platforms=["tpu"])(v)
