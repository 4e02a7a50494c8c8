# oracle: stdout compiles after 3 and 6 steps: 3 6
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(eq=False)
class AugmentConfig:
    flip: bool = True
    noise_std: float = 0.05


def augment(images, cfg):
    if cfg.flip:
        images = images[:, :, ::-1]
    return images + cfg.noise_std * jnp.sign(images)


@functools.partial(jax.jit, static_argnames="aug_cfg")
def train_step(w, images, labels, aug_cfg):
    x = augment(images, aug_cfg).reshape(images.shape[0], -1)
    return w - 0.01 * jax.grad(lambda w: jnp.mean((x @ w - labels) ** 2))(w)


aug_cfg = AugmentConfig()
w = jnp.zeros((64, 1))
images, labels = jnp.ones((4, 8, 8)), jnp.zeros((4, 1))
compiles = []
for step in range(6):
    aug_cfg = dataclasses.replace(aug_cfg, noise_std=0.05)
    w = train_step(w, images, labels, aug_cfg=aug_cfg)  # error: JX203
    compiles.append(train_step._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
