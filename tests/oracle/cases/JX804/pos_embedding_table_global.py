# oracle: stdout constant in the program: True
import jax
import jax.numpy as jnp
import numpy as np

VOCAB, DIM = 1024, 512
EMBEDDINGS = np.random.default_rng(0).normal(size=(VOCAB, DIM)).astype(np.float32)


@jax.jit
def embed(token_ids):
    return jnp.take(EMBEDDINGS, token_ids, axis=0)  # error: JX804


ids = jnp.arange(8)
program = embed.lower(ids).as_text()
print("program text:", len(program), "characters")
print("constant in the program:", len(program) > 1_000_000)
