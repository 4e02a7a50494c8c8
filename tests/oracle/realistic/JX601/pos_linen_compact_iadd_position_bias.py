# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import flax.linen as nn
import jax
import jax.numpy as jnp


def add_cls_bias(h, bias):
    h[:, 0] += bias  # error: JX601
    return h


class TokenEncoder(nn.Module):
    dim: int = 4

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(self.dim)(x)
        cls_bias = self.param("cls_bias", nn.initializers.ones, (self.dim,))
        h = add_cls_bias(h, cls_bias)
        return nn.LayerNorm()(h)


model = TokenEncoder()
x = jnp.ones((2, 3, 5))
variables = model.init(jax.random.PRNGKey(0), x)
out = jax.jit(model.apply)(variables, x)
print(out.shape)
