# oracle: stdout compiles after 3 and 6 tokens: 1 1
import jax
import jax.numpy as jnp


def init_lm(key, vocab=32, width=16):
    k1, k2 = jax.random.split(key)
    return {"embed": jax.random.normal(k1, (vocab, width)), "out": jax.random.normal(k2, (width, vocab))}


@jax.jit
def next_token_logits(params, tokens, length):
    h = params["embed"][tokens]
    positions = jnp.arange(tokens.shape[1])
    h = jnp.where((positions < length)[None, :, None], h, 0.0)
    context = jnp.sum(h, axis=1) / length
    return context @ params["out"]


def greedy_decode(params, prompt, max_new_tokens):
    batch, prompt_len = prompt.shape
    tokens = jnp.zeros((batch, prompt_len + max_new_tokens), jnp.int32).at[:, :prompt_len].set(prompt)
    compiles = []
    for t in range(prompt_len, prompt_len + max_new_tokens):
        logits = next_token_logits(params, tokens, t)
        tokens = tokens.at[:, t].set(jnp.argmax(logits, axis=-1))
        compiles.append(next_token_logits._cache_size())
    return tokens, compiles


params = init_lm(jax.random.key(0))
tokens, compiles = greedy_decode(params, jnp.zeros((2, 4), jnp.int32), max_new_tokens=6)
print("compiles after 3 and 6 tokens:", compiles[2], compiles[5])
