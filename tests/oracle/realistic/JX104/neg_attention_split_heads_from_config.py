# oracle: stdout (2, 3, 8)
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class AttentionConfig:
    num_heads: int = 2
    dim: int = 8


def split_heads(x, num_heads):
    batch, seq, dim = x.shape
    return x.reshape(batch, seq, num_heads, dim // num_heads)


def multi_head_attention(params, x, cfg: AttentionConfig):
    q = split_heads(x @ params["wq"], cfg.num_heads)
    k = split_heads(x @ params["wk"], cfg.num_heads)
    v = split_heads(x @ params["wv"], cfg.num_heads)
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
    out = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(scores, axis=-1), v)
    return out.reshape(x.shape)


cfg = AttentionConfig()
attn = jax.jit(lambda params, x: multi_head_attention(params, x, cfg))
params = {name: jnp.eye(cfg.dim) for name in ("wq", "wk", "wv")}
print(attn(params, jnp.ones((2, 3, cfg.dim))).shape)
