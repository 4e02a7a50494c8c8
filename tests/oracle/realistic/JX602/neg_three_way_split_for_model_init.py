# oracle: stdout parameters: 3
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
    embed_key, block_key, head_key = jax.random.split(key, 3)
    return {
        "embed": dense_init(embed_key, cfg.vocab, cfg.width),
        "block": dense_init(block_key, cfg.width, cfg.width),
        "head": dense_init(head_key, cfg.width, cfg.vocab),
    }


params = init_model(jax.random.key(0), ModelConfig())
print("parameters:", len(params))
