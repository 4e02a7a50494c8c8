# oracle: raises RuntimeError: Array has been deleted
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class TrainState(train_state.TrainState):
    ema_decay: float = 0.99


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


@functools.partial(jax.jit, donate_argnums=(0,))
def update(state, batch):
    x, y = batch

    def loss(params):
        return jnp.mean((state.apply_fn(params, x) - y) ** 2)

    return state.apply_gradients(grads=jax.grad(loss)(state.params))


def run(num_steps=3):
    x, y = jnp.ones((8, 4)), jnp.zeros((8, 1))
    model = Regressor()
    state = TrainState.create(apply_fn=model.apply, params=model.init(jax.random.PRNGKey(0), x), tx=optax.adam(1e-3))
    initial = state
    for _ in range(num_steps):
        state = update(state, (x, y))
    return jax.tree.map(lambda a, b: jnp.abs(a - b).max(), initial.params, state.params)  # error: JX603


print(run())
