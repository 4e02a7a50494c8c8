# oracle: stdout loss went down: True
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((state.apply_fn(params, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


x, y = jnp.ones((8, 4)), jnp.full((8, 1), 2.0)
model = Regressor()
state = train_state.TrainState.create(apply_fn=model.apply, params=model.init(jax.random.PRNGKey(0), x), tx=optax.sgd(0.1))
old = state
state, first = train_step(state, x, y)
predict = old.apply_fn
state, second = train_step(state, x, y)
print("loss went down:", bool(second < first), predict is state.apply_fn)
