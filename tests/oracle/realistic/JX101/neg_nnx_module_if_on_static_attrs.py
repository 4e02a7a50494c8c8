# oracle: stdout loss
import jax.numpy as jnp
import optax
from flax import nnx


class GatedBlock(nnx.Module):
    def __init__(self, din: int, dout: int, use_gate: bool, rngs: nnx.Rngs):
        self.din = din
        self.use_gate = use_gate
        self.proj = nnx.Linear(din, dout, rngs=rngs)
        self.gate = nnx.Linear(din, dout, rngs=rngs)

    def __call__(self, x):
        if x.shape[-1] != self.din:
            raise ValueError(f"expected {self.din} features, got {x.shape[-1]}")
        h = self.proj(x)
        if self.use_gate:
            h = h * nnx.sigmoid(self.gate(x))
        return nnx.relu(h)


class MLP(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.block = GatedBlock(3, 8, True, rngs)
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
print("loss", loss)
