# oracle: stdout same mask every step: True
import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    key = jax.random.PRNGKey(0)
    keep = jax.random.bernoulli(key, 0.5, x.shape)  # error: JX602
    h = jnp.where(keep, x, 0.0)
    return w - 0.1 * h.mean(), keep


def train(w, batches):
    masks = []
    for x in batches:
        w, keep = train_step(w, x)
        masks.append(keep)
    return w, masks


_, masks = train(1.0, [jnp.ones(16) * i for i in range(4)])
print("same mask every step:", all(bool(jnp.all(m == masks[0])) for m in masks))
