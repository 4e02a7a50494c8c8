# oracle: stdout compiles after 3 and 6 steps: 1 1
import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class DataConfig:
    batch_size: int = 4
    max_len: int = 64


def make_batch(rng, cfg):
    lengths = rng.integers(8, cfg.max_len, size=cfg.batch_size)
    tokens = np.zeros((cfg.batch_size, cfg.max_len), np.int32)
    for row, n in enumerate(lengths):
        tokens[row, :n] = rng.integers(1, 100, size=n)
    return tokens, lengths


@functools.partial(jax.jit, static_argnames="seq_len")
def forward(embed, tokens, seq_len):
    h = embed[tokens[:, :seq_len]]
    return jnp.mean(h, axis=1)


cfg = DataConfig()
rng = np.random.default_rng(0)
embed = jnp.ones((100, 16))
compiles = []
for step in range(6):
    tokens, lengths = make_batch(rng, cfg)
    out = forward(embed, jnp.asarray(tokens), seq_len=cfg.max_len)
    compiles.append(forward._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
