# oracle: stdout same noise every step: False
import jax
import jax.numpy as jnp


def gaussian_augment(x, key, sigma):
    return x + sigma * jax.random.normal(key, x.shape)


@jax.jit
def train_step(w, x, y, key):
    x_aug = gaussian_augment(x, key, sigma=0.1)
    loss, grads = jax.value_and_grad(lambda w: jnp.mean((x_aug @ w - y) ** 2))(w)
    return w - 0.05 * grads, x_aug - x


w = jnp.zeros((6, 1))
x, y = jnp.ones((4, 6)), jnp.ones((4, 1))
key = jax.random.PRNGKey(0)
noises = []
for step in range(4):
    key, step_key = jax.random.split(key)
    w, noise = train_step(w, x, y, step_key)
    noises.append(noise)
print("same noise every step:", all(bool(jnp.all(n == noises[0])) for n in noises))
