# oracle: stdout masked score -inf
import jax.numpy as jnp
from flax import nnx


class CausalScores(nnx.Module):
    def __init__(self, dim, rngs):
        self.q = nnx.Linear(dim, dim, use_bias=False, kernel_init=nnx.initializers.ones, rngs=rngs)
        self.k = nnx.Linear(dim, dim, use_bias=False, kernel_init=nnx.initializers.ones, rngs=rngs)

    def __call__(self, x):
        scores = self.q(x) @ self.k(x).T / x.shape[-1]
        upper = jnp.triu_indices(x.shape[0], k=1)
        scores = scores.at[upper].set(-jnp.inf)
        return scores


@nnx.jit
def attention_scores(model, x):
    return model(x)


model = CausalScores(2, nnx.Rngs(0))
scores = attention_scores(model, jnp.full((3, 2), 0.5))
print("masked score", scores[0, 2])
