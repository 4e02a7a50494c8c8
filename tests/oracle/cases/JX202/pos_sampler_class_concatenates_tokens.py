# oracle: stdout compiles after 5 tokens: 5
import jax
import jax.numpy as jnp


def init_params(key, vocab=16, width=8):
    k_embed, k_out = jax.random.split(key)
    return {
        "embed": jax.random.normal(k_embed, (vocab, width)) * 0.1,
        "out": jax.random.normal(k_out, (width, vocab)) * 0.1,
    }


@jax.jit
def last_logits(params, tokens):
    hidden = params["embed"][tokens].mean(axis=1)
    return hidden @ params["out"]


class Sampler:
    def __init__(self, params, temperature=1.0):
        self.params = params
        self.temperature = temperature

    def sample(self, prompt, steps):
        tokens = prompt
        for _ in range(steps):
            logits = last_logits(self.params, tokens)  # error: JX202
            nxt = jnp.argmax(logits / self.temperature, axis=-1)
            tokens = jnp.concatenate([tokens, nxt[:, None]], axis=1)
        return tokens


sampler = Sampler(init_params(jax.random.key(0)))
out = sampler.sample(jnp.zeros((2, 3), jnp.int32), steps=5)
print("compiles after 5 tokens:", last_logits._cache_size())
