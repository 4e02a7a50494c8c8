# oracle: raises RuntimeError: Array has been deleted
import jax
import jax.numpy as jnp


def adam_update(params, opt_state, grads, lr=1e-3, b1=0.9, b2=0.999):
    mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, opt_state["mu"], grads)
    nu = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g**2, opt_state["nu"], grads)
    params = jax.tree.map(lambda p, m, v: p - lr * m / (jnp.sqrt(v) + 1e-8), params, mu, nu)
    return params, {"mu": mu, "nu": nu}


update = jax.jit(adam_update, donate_argnums=(0, 1))


def train(params, batches):
    opt_state = {"mu": jax.tree.map(jnp.zeros_like, params), "nu": jax.tree.map(jnp.zeros_like, params)}
    for x in batches:
        grads = jax.grad(lambda p: jnp.mean((x @ p) ** 2))(params)
        prev_opt_state = opt_state
        params, opt_state = update(params, opt_state, grads)
        drift = jnp.abs(opt_state["nu"] - prev_opt_state["nu"]).max()  # error: JX603
        print("second-moment drift:", drift)
    return params


train(jnp.ones(8), [jnp.ones((4, 8)), 2 * jnp.ones((4, 8))])
