# oracle: stdout attention JitTracer(float32[2,3,3])
import flax.linen as nn
import jax
import jax.numpy as jnp


class SelfAttention(nn.Module):
    dim: int = 4

    @nn.compact
    def __call__(self, x):
        q = nn.Dense(self.dim, name="q")(x)
        k = nn.Dense(self.dim, name="k")(x)
        weights = jax.nn.softmax(q @ k.swapaxes(-1, -2) / jnp.sqrt(self.dim), axis=-1)
        print("attention", weights)  # error: JX106
        return weights @ x


model = SelfAttention()
x = jnp.ones((2, 3, 4))
variables = model.init(jax.random.PRNGKey(0), x)
apply_fn = jax.jit(model.apply)
apply_fn(variables, x)
