# oracle: stdout computed in: int32
import jax.numpy as jnp


class Tokenizer:
    def __init__(self, vocab_size):
        self.vocab_size = vocab_size

    def hash_ids(self, n):
        ids = jnp.arange(n, dtype=jnp.int64)  # error: JX802
        return ids * 1_000_003


hashed = Tokenizer(50_000).hash_ids(4_000)
print("computed in:", hashed.dtype)
print("wrapped around:", bool((hashed < 0).any()))
