# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import flax.linen as nn
import jax
import jax.numpy as jnp


def renormalize(h, max_norm):
    while jnp.linalg.norm(h) > max_norm:  # error: JX101
        h = h / 2.0
    return h


class Encoder(nn.Module):
    features: int = 16
    max_norm: float = 4.0

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(self.features)(x)
        h = nn.gelu(h)
        h = renormalize(h, self.max_norm)
        return nn.Dense(2)(h)


model = Encoder()
x = jnp.ones((4, 8))
variables = model.init(jax.random.PRNGKey(0), x)


@jax.jit
def predict(variables, x):
    return model.apply(variables, x)


print(predict(variables, x).shape)
