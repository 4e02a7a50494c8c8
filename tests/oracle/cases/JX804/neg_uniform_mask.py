# oracle: stdout constant in the program: False
import jax
import jax.numpy as jnp
import numpy as np

SEQ = 1024
KEEP_ALL = np.ones((SEQ, SEQ), dtype=np.float32)


def masked_scores(q, k):
    return (q @ k.T) * KEEP_ALL


q = jnp.ones((SEQ, 64))
program = jax.jit(masked_scores).lower(q, q).as_text()
print("constant in the program:", len(program) > 1_000_000)
