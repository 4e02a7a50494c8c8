# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax.numpy as jnp
import optax
from flax import nnx


class GatedBlock(nnx.Module):
    def __init__(self, din: int, dout: int, rngs: nnx.Rngs):
        self.proj = nnx.Linear(din, dout, rngs=rngs)
        self.gate = nnx.Linear(din, dout, rngs=rngs)

    def __call__(self, x):
        h = self.proj(x)
        if h.mean() > 0.0:  # error: JX101
            h = h * nnx.sigmoid(self.gate(x))
        return nnx.relu(h)


class MLP(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.block = GatedBlock(3, 8, rngs)
        self.head = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.head(self.block(x))


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


model = MLP(nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
loss = train_step(model, optimizer, x, jnp.zeros((4, 1)))
print(loss)
