# oracle: stdout constant in the program: False
import jax
import jax.numpy as jnp
import numpy as np

VOCAB, DIM = 1024, 512
EMBEDDINGS = jnp.asarray(np.random.default_rng(0).normal(size=(VOCAB, DIM)).astype(np.float32))


@jax.jit
def embed(table, token_ids):
    return jnp.take(table, token_ids, axis=0)


program = embed.lower(EMBEDDINGS, jnp.arange(8)).as_text()
print("constant in the program:", len(program) > 1_000_000)
