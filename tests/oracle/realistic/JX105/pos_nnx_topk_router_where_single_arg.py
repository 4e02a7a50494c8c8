# oracle: raises ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected
import jax.numpy as jnp
from flax import nnx


class Router(nnx.Module):
    def __init__(self, dim, num_experts, rngs):
        self.gate = nnx.Linear(dim, num_experts, rngs=rngs)

    def active_experts(self, x):
        scores = nnx.softmax(self.gate(x).mean(axis=0))
        return jnp.where(scores > 1.0 / scores.shape[0])[0]  # error: JX105

    def __call__(self, x):
        return self.active_experts(x)


class MoE(nnx.Module):
    def __init__(self, rngs):
        self.router = Router(4, 3, rngs)
        self.experts = nnx.Linear(4, 4 * 3, rngs=rngs)

    def __call__(self, x):
        active = self.router(x)
        outs = self.experts(x).reshape(x.shape[0], 3, 4)
        return outs[:, active].mean(axis=1)


model = MoE(nnx.Rngs(0))
print(nnx.jit(lambda m, x: m(x))(model, jnp.ones((2, 4))).shape)
