# oracle: stdout constant in the program: True
import jax
import jax.numpy as jnp
import numpy as np


class LinearProbe:
    def __init__(self, in_dim, out_dim, seed):
        rng = np.random.default_rng(seed)
        self.weights = rng.normal(size=(in_dim, out_dim)).astype(np.float32)

    def predict(self, features):
        return features @ self.weights  # error: JX804


probe = LinearProbe(1024, 512, seed=0)
predict = jax.jit(probe.predict)
program = predict.lower(jnp.ones((4, 1024))).as_text()
print("constant in the program:", len(program) > 1_000_000)
