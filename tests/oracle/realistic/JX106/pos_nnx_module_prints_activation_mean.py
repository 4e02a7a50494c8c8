# oracle: stdout hidden mean JitTracer(
import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, din, dhidden, dout, rngs: nnx.Rngs):
        self.fc1 = nnx.Linear(din, dhidden, rngs=rngs)
        self.fc2 = nnx.Linear(dhidden, dout, rngs=rngs)

    def __call__(self, x):
        h = nnx.relu(self.fc1(x))
        print("hidden mean", h.mean())  # error: JX106
        return self.fc2(h)


@nnx.jit
def eval_step(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


model = MLP(3, 8, 1, nnx.Rngs(0))
_ = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
eval_step(model, jnp.ones((2, 3)), jnp.zeros((2, 1)))
