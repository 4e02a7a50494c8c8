# oracle: stdout (4, 2)
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp


def renormalize(h, max_norm):
    norm = jnp.linalg.norm(h, axis=-1, keepdims=True)
    return jnp.where(norm > max_norm, h * (max_norm / norm), h)


class Encoder(nn.Module):
    features: int = 16
    max_norm: float = 4.0

    @nn.compact
    def __call__(self, x, train: bool):
        h = nn.Dense(self.features)(x)
        h = nn.gelu(h)
        if train:
            h = nn.Dropout(rate=0.1, deterministic=False)(h)
        h = renormalize(h, self.max_norm)
        return nn.Dense(2)(h)


model = Encoder()
x = jnp.ones((4, 8))
variables = model.init(jax.random.PRNGKey(0), x, train=False)


@functools.partial(jax.jit, static_argnames=("train",))
def predict(variables, x, key, train):
    return model.apply(variables, x, train=train, rngs={"dropout": key})


print(predict(variables, x, jax.random.PRNGKey(1), train=True).shape)
