# oracle: stdout total: [3. 3. 3. 3.]
import jax
import jax.numpy as jnp

accumulate = jax.jit(lambda total, x: total + x, donate_argnums=0)

total = jnp.zeros(4)
for i in range(3):
    total = accumulate(total, jnp.ones(4))
print("total:", total)
