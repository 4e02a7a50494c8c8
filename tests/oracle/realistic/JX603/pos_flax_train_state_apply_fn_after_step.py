# oracle: raises ValueError: INVALID_ARGUMENT: Invalid buffer passed to Execute()
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(8)(x)))


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn(params, x) - y) ** 2)

    grads = jax.grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads)


model = MLP()
x, y = jnp.ones((4, 2)), jnp.zeros((4, 1))
params = model.init(jax.random.PRNGKey(0), x)
state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.1))
next_state = train_step(state, x, y)
before = state.apply_fn(state.params, x)  # error: JX603
print("before/after:", before[0], next_state.apply_fn(next_state.params, x)[0])
