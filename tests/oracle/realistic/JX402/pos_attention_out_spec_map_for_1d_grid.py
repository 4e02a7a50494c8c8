# oracle: raises TypeError: scale_queries.<locals>.<lambda>() takes 1 positional argument but 2 were given
import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


@dataclasses.dataclass(frozen=True)
class AttnConfig:
    num_heads: int = 4
    block_q: int = 64
    head_dim: int = 64


def scale_scores_kernel(q_ref, o_ref):
    o_ref[...] = q_ref[...] / jnp.sqrt(q_ref.shape[-1]).astype(q_ref.dtype)


def scale_queries(q, cfg):
    heads, seq, _ = q.shape
    return pl.pallas_call(
        scale_scores_kernel,
        out_shape=jax.ShapeDtypeStruct(q.shape, q.dtype),
        grid=(cfg.num_heads, seq // cfg.block_q),
        in_specs=[pl.BlockSpec((None, cfg.block_q, cfg.head_dim), lambda h, i: (h, i, 0))],
        out_specs=pl.BlockSpec((None, cfg.block_q, cfg.head_dim), lambda i: (0, i, 0)),  # error: JX402
        interpret=True,
    )(q)


print(scale_queries(jnp.ones((4, 256, 64)), AttnConfig()).shape)
