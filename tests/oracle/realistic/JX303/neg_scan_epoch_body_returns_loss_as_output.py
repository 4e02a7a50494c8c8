# oracle: stdout losses
import jax
import jax.numpy as jnp
import optax
from jax import lax

tx = optax.adam(1e-2)


def loss_fn(params, batch):
    x, y = batch
    return jnp.mean((x @ params["w"] - y) ** 2)


def train_on_batch(carry, batch):
    params, opt_state = carry
    loss, grads = jax.value_and_grad(loss_fn)(params, batch)
    updates, opt_state = tx.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return (params, opt_state), loss


@jax.jit
def train_epoch(params, opt_state, xs, ys):
    (params, opt_state), losses = lax.scan(train_on_batch, (params, opt_state), (xs, ys))
    return params, opt_state, losses


params = {"w": jnp.zeros((3, 1))}
params, opt_state, losses = train_epoch(params, tx.init(params), jnp.ones((2, 4, 3)), jnp.ones((2, 4, 1)))
print("losses", losses)
