# oracle: stdout dead column [0. 0. 0. 0.]
import jax.numpy as jnp
from flax import nnx


class MaskedLinear(nnx.Module):
    def __init__(self, din, dout, dead_unit, rngs: nnx.Rngs):
        self.kernel = nnx.Param(nnx.initializers.lecun_normal()(rngs.params(), (din, dout)))
        self.bias = nnx.Param(jnp.zeros(dout))
        self.dead_unit = dead_unit

    def prune(self):
        self.kernel[:, self.dead_unit] = 0.0

    def __call__(self, x):
        return x @ self.kernel[...] + self.bias[...]


class Net(nnx.Module):
    def __init__(self, rngs):
        self.layer = MaskedLinear(4, 3, dead_unit=1, rngs=rngs)

    def __call__(self, x):
        self.layer.prune()
        return nnx.relu(self.layer(x))


@nnx.jit
def forward(model, x):
    return model(x)


model = Net(nnx.Rngs(0))
forward(model, jnp.ones((2, 4)))
print("dead column", model.layer.kernel[:, 1])
