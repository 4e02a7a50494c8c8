# oracle: stdout same noise every step: True
import jax
import jax.numpy as jnp


def gaussian_augment(x, sigma):
    key = jax.random.PRNGKey(0)
    return x + sigma * jax.random.normal(key, x.shape)  # error: JX602


@jax.jit
def train_step(w, x, y):
    x_aug = gaussian_augment(x, sigma=0.1)
    loss, grads = jax.value_and_grad(lambda w: jnp.mean((x_aug @ w - y) ** 2))(w)
    return w - 0.05 * grads, x_aug - x


w = jnp.zeros((6, 1))
x, y = jnp.ones((4, 6)), jnp.ones((4, 1))
noises = []
for step in range(4):
    w, noise = train_step(w, x, y)
    noises.append(noise)
print("same noise every step:", all(bool(jnp.all(n == noises[0])) for n in noises))
