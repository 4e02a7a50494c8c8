# oracle: raises ValueError: The Pallas TPU lowering currently requires that the last two dimensions of your block shape are divisible by 8 and 128 respectively
import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


@dataclasses.dataclass(frozen=True)
class TileConfig:
    block_m: int = 100
    block_n: int = 256


def silu_kernel(x_ref, o_ref):
    x = x_ref[...]
    o_ref[...] = x * jax.nn.sigmoid(x)


def silu(x, cfg=TileConfig()):
    m, n = x.shape
    spec = pl.BlockSpec((cfg.block_m, cfg.block_n), lambda i, j: (i, j))
    return pl.pallas_call(
        silu_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(m // cfg.block_m, n // cfg.block_n),
        in_specs=[spec],  # error: JX407
        out_specs=spec,  # error: JX407
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel")),
    )(x)


x = jax.ShapeDtypeStruct((400, 512), jnp.float32)
module = jax.export.export(jax.jit(silu), platforms=["tpu"])(x).mlir_module()
print("Mosaic kernel:", "tpu_custom_call" in module)
