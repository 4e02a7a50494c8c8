# oracle: stdout Mosaic kernel: True
import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


@dataclasses.dataclass(frozen=True)
class KernelOptions:
    block_rows: int = 64
    interpret: bool = False


def relu_kernel(x_ref, o_ref):
    o_ref[...] = jnp.maximum(x_ref[...], 0.0)


def relu(x, opts=KernelOptions()):
    spec = pl.BlockSpec((opts.block_rows, x.shape[1]), lambda i: (i, 0))
    return pl.pallas_call(
        relu_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(x.shape[0] // opts.block_rows,),
        in_specs=[spec],
        out_specs=spec,
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
        interpret=opts.interpret,
    )(x)


x = jax.ShapeDtypeStruct((256, 128), jnp.float32)
module = jax.export.export(jax.jit(relu), platforms=["tpu"])(x).mlir_module()
print("Mosaic kernel:", "tpu_custom_call" in module)
