# oracle: raises ValueError: INVALID_ARGUMENT: Invalid buffer passed to Execute()
import jax
import jax.numpy as jnp

accumulate = jax.jit(lambda total, x: total + x, donate_argnums=0)

total = jnp.zeros(4)
for i in range(3):
    result = accumulate(total, jnp.ones(4))  # error: JX603
