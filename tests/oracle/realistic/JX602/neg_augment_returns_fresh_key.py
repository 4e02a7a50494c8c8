# oracle: stdout same shifts: False
import jax
import jax.numpy as jnp


def random_shift(key, images, max_shift=3):
    key, sub = jax.random.split(key)
    shifts = jax.random.randint(sub, (images.shape[0],), -max_shift, max_shift + 1)
    return jax.vmap(lambda im, s: jnp.roll(im, s, axis=0))(images, shifts), key, shifts


def augment(key, images):
    images, key, first = random_shift(key, images)
    images, key, second = random_shift(key, images)
    return images, first, second


_, first, second = augment(jax.random.PRNGKey(3), jnp.zeros((8, 16)))
print("same shifts:", bool(jnp.all(first == second)))
