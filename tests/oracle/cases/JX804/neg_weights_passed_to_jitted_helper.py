# oracle: stdout constant in the program: False
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _linear(weights, features):
    return features @ weights


class LinearProbe:
    def __init__(self, in_dim, out_dim, seed):
        rng = np.random.default_rng(seed)
        self.weights = jnp.asarray(rng.normal(size=(in_dim, out_dim)).astype(np.float32))

    def predict(self, features):
        return _linear(self.weights, features)


probe = LinearProbe(1024, 512, seed=0)
program = _linear.lower(probe.weights, jnp.ones((4, 1024))).as_text()
print("constant in the program:", len(program) > 1_000_000)
