# oracle: stdout (2, 256, 128)
import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


@dataclasses.dataclass(frozen=True)
class GeluConfig:
    block_t: int = 64
    d_model: int = 128


def gelu_kernel(x_ref, o_ref):
    o_ref[...] = jax.nn.gelu(x_ref[...])


def fused_gelu(h, cfg):
    batch, seq, _ = h.shape
    block = (None, cfg.block_t, cfg.d_model)
    return pl.pallas_call(
        gelu_kernel,
        out_shape=jax.ShapeDtypeStruct(h.shape, h.dtype),
        grid=(batch, seq // cfg.block_t),
        in_specs=[pl.BlockSpec(block, lambda b, t: (b, t, 0))],
        out_specs=pl.BlockSpec((None, cfg.block_t, cfg.d_model), lambda b, t: (b, t, 0)),
        interpret=True,
    )(h)


h = jnp.ones((2, 256, 128))
print(fused_gelu(h, GeluConfig()).shape)
