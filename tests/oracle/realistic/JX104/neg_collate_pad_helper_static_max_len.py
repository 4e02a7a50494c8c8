# oracle: stdout (6, 2)
import functools

import jax
import jax.numpy as jnp


def pad_tokens(tokens, max_len, pad_id=0):
    pad = jnp.full((max_len - tokens.shape[0],), pad_id, dtype=tokens.dtype)
    return jnp.concatenate([tokens, pad])


def encode(tokens, max_len, embed_table):
    padded = pad_tokens(tokens, max_len)
    mask = (padded != 0).astype(jnp.float32)
    return embed_table[padded] * mask[:, None]


@functools.partial(jax.jit, static_argnames=("max_len",))
def embed_batch(tokens, embed_table, max_len):
    return encode(tokens, max_len, embed_table)


table = jnp.arange(20.0).reshape(10, 2)
print(embed_batch(jnp.array([3, 4, 5]), table, max_len=6).shape)
