# oracle: stdout result: 10.0
import jax
import jax.numpy as jnp
import numpy as np

total = jax.jit(lambda values, weights: jnp.sum(values * jnp.asarray(weights)))

print("result:", float(total(jnp.ones(4), [1.0, 2.0, 3.0, 4.0])))
total(jnp.ones(4), np.array([1.0, 2.0, 3.0, 4.0]))
