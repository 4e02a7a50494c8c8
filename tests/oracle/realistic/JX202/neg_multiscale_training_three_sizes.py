# oracle: stdout compiles after 3 and 6 steps: 3 3
import jax
import jax.numpy as jnp

SCALES = (24, 32, 40)


def resize_batch(images, size):
    return jax.image.resize(images, (images.shape[0], size, size, images.shape[-1]), "bilinear")


@jax.jit
def train_step(kernel, images):
    def loss_fn(kernel):
        feats = jax.lax.conv_general_dilated(images, kernel, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return jnp.mean(feats**2)

    return kernel - 0.01 * jax.grad(loss_fn)(kernel)


kernel = jnp.ones((3, 3, 3, 4)) * 0.1
images = jnp.ones((2, 32, 32, 3))
compiles = []
for step in range(6):
    size = SCALES[step % len(SCALES)]
    kernel = train_step(kernel, resize_batch(images, size))
    compiles.append(train_step._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
