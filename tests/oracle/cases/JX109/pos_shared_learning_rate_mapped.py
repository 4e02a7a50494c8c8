# oracle: raises ValueError: vmap was requested to map its argument along axis 0, which implies that its rank
import jax
import jax.numpy as jnp


def sgd_step(w, grad, lr):
    return w - lr * grad


# One learning rate for every ensemble member, but the default in_axes=0 maps it too.
ensemble_step = jax.vmap(sgd_step)
ws = jnp.ones((5, 3))
grads = jnp.full((5, 3), 0.5)
print(ensemble_step(ws, grads, 0.1))  # error: JX109
