# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax
import jax.numpy as jnp
import optax


def has_nan(tree):
    leaves = jax.tree.leaves(tree)
    return bool(jnp.any(jnp.stack([jnp.isnan(l).any() for l in leaves])))  # error: JX101


class SafeOptimizer:
    def __init__(self, tx):
        self.tx = tx

    def init(self, params):
        return self.tx.init(params)

    def step(self, grads, state, params):
        if has_nan(grads):
            return params, state
        updates, state = self.tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state


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
