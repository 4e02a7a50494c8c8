# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


def stable_softmax(logits):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(shifted)  # error: JX103
    return e / e.sum(axis=-1, keepdims=True)


class Attention(eqx.Module):
    qkv: eqx.nn.Linear
    dim: int = eqx.field(static=True)

    def __init__(self, dim, key):
        self.dim = dim
        self.qkv = eqx.nn.Linear(dim, 3 * dim, key=key)

    def __call__(self, x):
        q, k, v = jnp.split(jax.vmap(self.qkv)(x), 3, axis=-1)
        weights = stable_softmax(q @ k.T / jnp.sqrt(self.dim))
        return weights @ v


@eqx.filter_jit
def forward(model, x):
    return model(x)


model = Attention(4, jax.random.PRNGKey(0))
print(forward(model, jnp.ones((3, 4))).shape)
