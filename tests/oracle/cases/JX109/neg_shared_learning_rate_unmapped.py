# oracle: runs
import jax
import jax.numpy as jnp


def sgd_step(w, grad, lr):
    return w - lr * grad


ensemble_step = jax.vmap(sgd_step, in_axes=(0, 0, None))
print(ensemble_step(jnp.ones((5, 3)), jnp.full((5, 3), 0.5), 0.1))
