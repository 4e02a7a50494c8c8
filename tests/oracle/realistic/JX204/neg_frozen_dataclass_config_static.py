# oracle: stdout output shape: (2, 5, 4, 8)
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class AttentionConfig:
    num_heads: int = 4
    head_dim: int = 8
    causal: bool = True


def split_heads(x, cfg):
    b, t, _ = x.shape
    return x.reshape(b, t, cfg.num_heads, cfg.head_dim)


@functools.partial(jax.jit, static_argnums=2)
def self_attention(x, wqkv, cfg):
    q, k, v = (split_heads(h, cfg) for h in jnp.split(x @ wqkv, 3, axis=-1))
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / cfg.head_dim**0.5
    if cfg.causal:
        t = x.shape[1]
        scores = jnp.where(jnp.tril(jnp.ones((t, t), bool)), scores, -1e9)
    return jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(scores), v)


cfg = AttentionConfig()
x = jnp.ones((2, 5, 32))
out = self_attention(x, jnp.ones((32, 96)) * 0.01, cfg)
print("output shape:", out.shape)
