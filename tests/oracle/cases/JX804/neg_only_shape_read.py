# oracle: stdout constant in the program: False
import jax
import jax.numpy as jnp
import numpy as np

EMBEDDINGS = np.random.default_rng(0).normal(size=(1024, 512)).astype(np.float32)


@jax.jit
def clip_ids(token_ids):
    return jnp.clip(token_ids, 0, EMBEDDINGS.shape[0] - 1)


program = clip_ids.lower(jnp.arange(8)).as_text()
print("constant in the program:", len(program) > 1_000_000)
