# oracle: stdout leaves 1
import jax
import jax.numpy as jnp
import optax


def has_nan(tree):
    leaves = jax.tree.leaves(tree)
    return jnp.any(jnp.stack([jnp.isnan(l).any() for l in leaves]))


class SafeOptimizer:
    def __init__(self, tx):
        self.tx = tx

    def init(self, params):
        return self.tx.init(params)

    def step(self, grads, state, params):
        bad = has_nan(grads)
        print("leaves", len(jax.tree.leaves(grads)))
        updates, new_state = self.tx.update(grads, state, params)
        new_params = optax.apply_updates(params, updates)
        keep = lambda new, old: jnp.where(bad, old, new)
        return jax.tree.map(keep, new_params, params), jax.tree.map(keep, new_state, state)


def loss_fn(params, x):
    return jnp.sum(jnp.sin(x @ params["w"]) ** 2)


opt = SafeOptimizer(optax.sgd(0.1))


@jax.jit
def train_step(params, state, x):
    grads = jax.grad(loss_fn)(params, x)
    return opt.step(grads, state, params)


params = {"w": jnp.ones((3, 2))}
params, state = train_step(params, opt.init(params), jnp.ones((2, 3)))
print(params["w"])
