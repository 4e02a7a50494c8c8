# oracle: stdout bias
import jax
import jax.numpy as jnp
import optax
from jax import lax


def init_accumulator(params):
    return jax.tree.map(lambda p: jnp.zeros_like(p, dtype=jnp.bfloat16), params)


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def accumulate(acc, microbatch, params):
    x, y = microbatch
    grads = jax.grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda a, g: a + g.astype(a.dtype), acc, grads), None


tx = optax.sgd(0.1)


@jax.jit
def train_step(params, opt_state, xs, ys):
    acc = init_accumulator(params)
    acc, _ = lax.scan(lambda a, mb: accumulate(a, mb, params), acc, (xs, ys))
    grads = jax.tree.map(lambda g, p: (g / xs.shape[0]).astype(p.dtype), acc, params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


params = {"w": jnp.zeros((3, 1)), "b": jnp.zeros(1)}
params, opt_state = train_step(params, tx.init(params), jnp.ones((2, 4, 3)), jnp.ones((2, 4, 1)))
print("bias", params["b"])
