# oracle: stdout compiles after 3 and 6 tokens: 3 6
import jax
import jax.numpy as jnp


def init_lm(key, vocab=32, width=16):
    k1, k2 = jax.random.split(key)
    return {"embed": jax.random.normal(k1, (vocab, width)), "out": jax.random.normal(k2, (width, vocab))}


@jax.jit
def next_token_logits(params, tokens):
    h = params["embed"][tokens]
    context = jnp.cumsum(h, axis=1) / jnp.arange(1, tokens.shape[1] + 1)[:, None]
    return context[:, -1] @ params["out"]


def greedy_decode(params, prompt, max_new_tokens):
    tokens = prompt
    compiles = []
    for _ in range(max_new_tokens):
        logits = next_token_logits(params, tokens)  # error: JX202
        next_tok = jnp.argmax(logits, axis=-1)
        tokens = jnp.concatenate([tokens, next_tok[:, None]], axis=1)
        compiles.append(next_token_logits._cache_size())
    return tokens, compiles


params = init_lm(jax.random.key(0))
tokens, compiles = greedy_decode(params, jnp.zeros((2, 4), jnp.int32), max_new_tokens=6)
print("compiles after 3 and 6 tokens:", compiles[2], compiles[5])
