# oracle: stdout noise equals the inputs: True
import jax
import jax.numpy as jnp


def make_inputs(n, dim):
    rng = jax.random.key(0)
    return jax.random.normal(rng, (n, dim))


def make_label_noise(n, dim, scale=1.0):
    rng = jax.random.key(0)
    return scale * jax.random.normal(rng, (n, dim))  # error: JX602


def build_dataset(n=32, dim=4):
    x = make_inputs(n, dim)
    noise = make_label_noise(n, dim)
    y = 2.0 * x + noise
    return x, y, noise


x, y, noise = build_dataset()
print("noise equals the inputs:", bool(jnp.all(noise == x)))
