# oracle: stdout constant in the program: False
import jax
import jax.numpy as jnp
import numpy as np

GELU_TABLE = np.tanh(np.linspace(-4.0, 4.0, 256, dtype=np.float32))


@jax.jit
def activation(index):
    return jnp.take(GELU_TABLE, index)


program = activation.lower(jnp.arange(8)).as_text()
print("constant in the program:", len(program) > 1_000_000)
