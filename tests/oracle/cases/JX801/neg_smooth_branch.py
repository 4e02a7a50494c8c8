# oracle: stdout gradient has NaN: False
import jax
import jax.numpy as jnp


class LeakyActivation:
    def __init__(self, slope):
        self.slope = slope

    def __call__(self, x):
        return jnp.where(x > 0, jnp.tanh(x), self.slope * x)


activation = LeakyActivation(0.01)


def loss(x):
    return jnp.sum(activation(x) ** 2)


grads = jax.grad(loss)(jnp.array([-1.0, 0.0, 2.0]))
print("gradient has NaN:", bool(jnp.isnan(grads).any()))
