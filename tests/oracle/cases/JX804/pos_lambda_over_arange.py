# oracle: stdout constant in the program: True
import jax
import jax.numpy as jnp
import numpy as np

POSITIONS = np.arange(512 * 1024, dtype=np.float32).reshape(512, 1024)
add_positions = jax.jit(lambda x: x + POSITIONS)  # error: JX804

program = add_positions.lower(jnp.zeros((512, 1024))).as_text()
print("constant in the program:", len(program) > 1_000_000)
