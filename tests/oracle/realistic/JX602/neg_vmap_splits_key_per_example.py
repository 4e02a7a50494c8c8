# oracle: stdout every example got the same crop: False
import jax
import jax.numpy as jnp


def random_crop(image, key, size=24):
    max_offset = image.shape[0] - size
    dy, dx = jax.random.randint(key, (2,), 0, max_offset + 1)
    return jax.lax.dynamic_slice(image, (dy, dx, 0), (size, size, image.shape[2])), jnp.stack([dy, dx])


@jax.jit
def augment_batch(images, key):
    keys = jax.random.split(key, images.shape[0])
    return jax.vmap(random_crop)(images, keys)


images = jnp.ones((8, 32, 32, 3))
crops, offsets = augment_batch(images, jax.random.key(0))
print("every example got the same crop:", bool(jnp.all(offsets == offsets[0])))
