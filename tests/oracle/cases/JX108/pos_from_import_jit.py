# oracle: raises TypeError: Error interpreting argument to
import jax.numpy as jnp
from jax import jit


class Normalizer:
    eps = 1e-6

    @jit  # error: JX108
    def normalize(self, x):
        return x / (jnp.linalg.norm(x) + self.eps)


Normalizer().normalize(jnp.arange(3.0))
