# oracle: stdout step 1 done
import jax.numpy as jnp
import optax
from flax import nnx


class Regressor(nnx.Module):
    def __init__(self, rngs):
        self.fc = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.fc(x)


def mse(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(mse)(model, x, y)
    optimizer.update(model, grads)
    return loss


model = Regressor(nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.adamw(1e-2), wrt=nnx.Param)
step = 0
while step < 2:
    loss = train_step(model, optimizer, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    print("step", step, "done")
    step += 1
