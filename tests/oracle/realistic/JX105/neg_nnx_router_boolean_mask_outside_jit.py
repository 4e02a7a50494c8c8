# oracle: stdout active experts
import jax.numpy as jnp
from flax import nnx


class Router(nnx.Module):
    def __init__(self, dim, num_experts, rngs):
        self.gate = nnx.Linear(dim, num_experts, rngs=rngs)

    def __call__(self, x):
        return nnx.softmax(self.gate(x).mean(axis=0))


@nnx.jit
def route(router, x):
    scores = router(x)
    return scores, scores > 1.0 / scores.shape[0]


router = Router(4, 3, nnx.Rngs(0))
scores, active = route(router, jnp.ones((2, 4)))
expert_ids = jnp.arange(3)
print("active experts", expert_ids[active], scores[active])
