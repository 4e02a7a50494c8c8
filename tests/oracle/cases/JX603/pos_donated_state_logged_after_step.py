# oracle: raises RuntimeError: Array has been deleted
import jax
import jax.numpy as jnp


def sgd(params, batch):
    return params - 0.01 * batch.mean(axis=0)


step_fn = jax.jit(sgd, donate_argnums=0)
params = jnp.zeros(3) + 1.0
new_params = step_fn(params, jnp.ones((8, 3)))
print("old shape", params.shape, "on", params.device)  # error: JX603
