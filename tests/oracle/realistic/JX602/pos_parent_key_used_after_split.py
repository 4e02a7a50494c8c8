# oracle: raises KeyReuseError: Previously-consumed key passed to jit-compiled function
import dataclasses

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


@dataclasses.dataclass(frozen=True)
class ModelConfig:
    vocab: int = 64
    width: int = 16


def dense_init(key, n_in, n_out):
    return jax.random.normal(key, (n_in, n_out)) / jnp.sqrt(n_in)


def init_model(key, cfg):
    embed_key, block_key = jax.random.split(key)
    return {
        "embed": dense_init(embed_key, cfg.vocab, cfg.width),
        "block": dense_init(block_key, cfg.width, cfg.width),
        "head": dense_init(key, cfg.width, cfg.vocab),  # error: JX602
    }


params = init_model(jax.random.key(0), ModelConfig())
