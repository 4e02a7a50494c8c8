# oracle: stdout distinct crops: True
import jax
import jax.numpy as jnp


def random_shift(image, scale, key):
    offset = jax.random.randint(key, (), 0, 4)
    return jnp.roll(image, offset) * scale


@jax.jit
def augment(images, scale, key):
    keys = jax.random.split(key, images.shape[0])
    return jax.vmap(random_shift, in_axes=(0, None, 0))(images, scale, keys)


out = augment(jnp.tile(jnp.arange(8.0), (16, 1)), 2.0, jax.random.key(1))
print("distinct crops:", bool(jnp.any(out != out[0])))
