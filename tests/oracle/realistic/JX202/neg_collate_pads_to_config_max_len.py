# oracle: stdout compiles after 3 and 6 steps: 1 1
import jax
import jax.numpy as jnp
import numpy as np

MAX_LEN = 80


def load_dataset(num_examples=24):
    return [np.arange(1, 5 + 3 * i, dtype=np.int32) % 50 for i in range(num_examples)]


def collate(examples, max_len=MAX_LEN):
    tokens = np.zeros((len(examples), max_len), np.int32)
    for row, e in enumerate(examples):
        tokens[row, : len(e)] = e[:max_len]
    return jnp.asarray(tokens), jnp.asarray(tokens != 0)


def batches(dataset, batch_size):
    for start in range(0, len(dataset), batch_size):
        yield collate(dataset[start : start + batch_size])


@jax.jit
def masked_mean_embedding(embed, tokens, mask):
    h = embed[tokens] * mask[..., None]
    return jnp.sum(h, axis=1) / jnp.sum(mask, axis=1, keepdims=True)


embed = jnp.ones((50, 8))
compiles = []
for tokens, mask in batches(load_dataset(), batch_size=4):
    pooled = masked_mean_embedding(embed, tokens, mask)
    compiles.append(masked_mean_embedding._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
