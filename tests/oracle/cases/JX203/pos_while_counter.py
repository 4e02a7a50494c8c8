# oracle: stdout compiles: 6
import jax
import jax.numpy as jnp

power = jax.jit(lambda x, p: x**p, static_argnums=1)

x = jnp.ones(3)
t = 0
while t < 6:
    power(x, t)  # error: JX203
    t += 1
print("compiles:", power._cache_size())
