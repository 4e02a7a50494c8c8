# oracle: stdout matches reference: False
import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


@dataclasses.dataclass(frozen=True)
class KernelConfig:
    block_rows: int = 96
    hidden: int = 128


def scale_kernel(x_ref, s_ref, o_ref):
    o_ref[...] = x_ref[...] * s_ref[...]


def scale_rows(x, scale, cfg):
    n_rows = x.shape[0]
    spec = pl.BlockSpec((cfg.block_rows, cfg.hidden), lambda i: (i, 0))
    return pl.pallas_call(
        scale_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(n_rows // cfg.block_rows,),  # error: JX405
        in_specs=[spec, pl.BlockSpec((1, cfg.hidden), lambda i: (0, 0))],
        out_specs=spec,
        interpret=True,
    )(x, scale)


x = jnp.ones((1000, 128))
scale = jnp.full((1, 128), 3.0)
y = scale_rows(x, scale, KernelConfig())
print("matches reference:", bool(jnp.allclose(y, x * scale)))
