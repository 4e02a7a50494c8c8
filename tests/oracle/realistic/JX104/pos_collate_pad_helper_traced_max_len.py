# oracle: raises TypeError: Shapes must be 1D sequences of concrete values of integer type
import jax
import jax.numpy as jnp


def pad_tokens(tokens, max_len, pad_id=0):
    pad = jnp.full((max_len - tokens.shape[0],), pad_id, dtype=tokens.dtype)  # error: JX104
    return jnp.concatenate([tokens, pad])


def encode(tokens, max_len, embed_table):
    padded = pad_tokens(tokens, max_len)
    mask = (padded != 0).astype(jnp.float32)
    return embed_table[padded] * mask[:, None]


@jax.jit
def embed_batch(tokens, max_len, embed_table):
    return encode(tokens, max_len, embed_table)


table = jnp.arange(20.0).reshape(10, 2)
print(embed_batch(jnp.array([3, 4, 5]), 6, table))
