# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
import jax.numpy as jnp
from flax import nnx


class MaskedLinear(nnx.Module):
    def __init__(self, din, dout, dead_unit, rngs: nnx.Rngs):
        self.kernel = nnx.Param(nnx.initializers.lecun_normal()(rngs.params(), (din, dout)))
        self.bias = nnx.Param(jnp.zeros(dout))
        self.dead_unit = dead_unit

    def __call__(self, x):
        kernel = self.kernel[...]
        kernel[:, self.dead_unit] = 0.0  # error: JX601
        return x @ kernel + self.bias[...]


class Net(nnx.Module):
    def __init__(self, rngs):
        self.layer = MaskedLinear(4, 3, dead_unit=1, rngs=rngs)

    def __call__(self, x):
        return nnx.relu(self.layer(x))


@nnx.jit
def forward(model, x):
    return model(x)


print(forward(Net(nnx.Rngs(0)), jnp.ones((2, 4))))
