# oracle: stdout compiles after 3 and 6 steps: 3 6
import functools

import jax
import jax.numpy as jnp
import numpy as np


def make_batch(rng, batch_size=4, max_len=64):
    lengths = rng.integers(8, max_len, size=batch_size)
    tokens = np.zeros((batch_size, max_len), np.int32)
    for row, n in enumerate(lengths):
        tokens[row, :n] = rng.integers(1, 100, size=n)
    return tokens, lengths


@functools.partial(jax.jit, static_argnames="seq_len")
def forward(embed, tokens, seq_len):
    h = embed[tokens[:, :seq_len]]
    return jnp.mean(h, axis=1)


rng = np.random.default_rng(0)
embed = jnp.ones((100, 16))
compiles = []
for step in range(6):
    tokens, lengths = make_batch(rng)
    seq_len = int(lengths.max())
    out = forward(embed, jnp.asarray(tokens), seq_len=seq_len)  # error: JX203
    compiles.append(forward._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
