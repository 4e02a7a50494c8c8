# oracle: stdout same batch every step: True
import jax
import jax.numpy as jnp


def sample_batch(key, images, labels, batch_size):
    idx = jax.random.choice(key, images.shape[0], (batch_size,), replace=False)
    return (images[idx], labels[idx]), key


@jax.jit
def train_step(w, images, labels):
    grads = jax.grad(lambda w: jnp.mean((images @ w - labels) ** 2))(w)
    return w - 0.01 * grads


images = jnp.arange(1000.0).reshape(100, 10)
labels = jnp.arange(100.0)[:, None]
key = jax.random.key(0)
w = jnp.zeros((10, 1))
seen = []
for step in range(5):
    (x, y), key = sample_batch(key, images, labels, batch_size=8)  # error: JX602
    w = train_step(w, x, y)
    seen.append(y[:, 0])
print("same batch every step:", all(bool(jnp.all(s == seen[0])) for s in seen))
