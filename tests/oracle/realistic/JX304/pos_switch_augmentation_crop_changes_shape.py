# oracle: raises TypeError: switch branches must have equal output types
import jax
import jax.numpy as jnp
from jax import lax


def identity(img):
    return img


def hflip(img):
    return img[:, ::-1]


def center_crop(img):
    return img[1:-1, 1:-1]


AUGMENTATIONS = (identity, hflip, center_crop)


def augment_one(img, key):
    choice = jax.random.randint(key, (), 0, len(AUGMENTATIONS))
    return lax.switch(choice, AUGMENTATIONS, img)  # error: JX304


@jax.jit
def augment_batch(images, key):
    keys = jax.random.split(key, images.shape[0])
    return jax.vmap(augment_one)(images, keys)


print(augment_batch(jnp.ones((2, 4, 4)), jax.random.PRNGKey(0)).shape)
