# oracle: stdout rope base frequency 0.1
import flax.linen as nn
import jax
import jax.numpy as jnp


def rope_frequencies(dim, base=10000.0):
    with jax.ensure_compile_time_eval():
        freqs = 1.0 / (base ** (jnp.arange(0, dim, 2) / dim))
        print("rope base frequency", round(float(freqs[1]), 3))
    return freqs


class RotaryDense(nn.Module):
    dim: int = 4

    def setup(self):
        self.proj = nn.Dense(self.dim)
        self.freqs = rope_frequencies(self.dim, base=100.0)

    def __call__(self, x, positions):
        h = self.proj(x)
        angles = positions[:, None] * self.freqs[None, :]
        h1, h2 = jnp.split(h, 2, axis=-1)
        cos, sin = jnp.cos(angles), jnp.sin(angles)
        return jnp.concatenate([h1 * cos - h2 * sin, h1 * sin + h2 * cos], axis=-1)


model = RotaryDense()
x = jnp.ones((3, 4))
variables = model.init(jax.random.PRNGKey(0), x, jnp.arange(3.0))
jax.jit(model.apply)(variables, x, jnp.arange(3.0))
