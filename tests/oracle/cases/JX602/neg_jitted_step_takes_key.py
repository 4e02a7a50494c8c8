# oracle: stdout same mask every step: False
import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x, key):
    keep = jax.random.bernoulli(key, 0.5, x.shape)
    h = jnp.where(keep, x, 0.0)
    return w - 0.1 * h.mean(), keep


def train(w, batches, key):
    masks = []
    for x in batches:
        key, step_key = jax.random.split(key)
        w, keep = train_step(w, x, step_key)
        masks.append(keep)
    return w, masks


_, masks = train(1.0, [jnp.ones(16) * i for i in range(4)], jax.random.PRNGKey(0))
print("same mask every step:", all(bool(jnp.all(m == masks[0])) for m in masks))
