# oracle: raises TypeError: Shapes must be 1D sequences of concrete values of integer type
import jax
import jax.numpy as jnp


def split_heads(x, num_heads):
    batch, seq, dim = x.shape
    return x.reshape(batch, seq, num_heads, dim // num_heads)  # error: JX104


def multi_head_attention(params, x, num_heads):
    q = split_heads(x @ params["wq"], num_heads)
    k = split_heads(x @ params["wk"], num_heads)
    v = split_heads(x @ params["wv"], num_heads)
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
    out = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(scores, axis=-1), v)
    return out.reshape(x.shape)


attn = jax.jit(multi_head_attention)
params = {name: jnp.eye(8) for name in ("wq", "wk", "wv")}
print(attn(params, jnp.ones((2, 3, 8)), 2).shape)
