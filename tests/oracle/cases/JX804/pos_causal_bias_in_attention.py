# oracle: stdout constant in the program: True
import jax
import jax.numpy as jnp
import numpy as np

SEQ = 1024
CAUSAL_BIAS = np.triu(np.full((SEQ, SEQ), -1e9, dtype=np.float32), k=1)


def attention(q, k, v):
    scores = q @ k.T / np.sqrt(q.shape[-1]) + CAUSAL_BIAS  # error: JX804
    return jax.nn.softmax(scores) @ v


q = jnp.ones((SEQ, 64))
program = jax.jit(attention).lower(q, q, q).as_text()
print("constant in the program:", len(program) > 1_000_000)
