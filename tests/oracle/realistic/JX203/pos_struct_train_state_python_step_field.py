# oracle: stdout compiles after 3 and 6 steps: 3 6
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class TrainState:
    params: dict
    step: int = struct.field(pytree_node=False)

    def apply_gradients(self, grads, lr):
        params = jax.tree.map(lambda p, g: p - lr * g, self.params, grads)
        return self.replace(params=params, step=self.step + 1)


@jax.jit
def train_step(state, x, y):
    grads = jax.grad(lambda p: jnp.mean((x @ p["w"] - y) ** 2))(state.params)
    return state.apply_gradients(grads, lr=0.1)


state = TrainState(params={"w": jnp.zeros((4, 1))}, step=0)
x, y = jnp.ones((8, 4)), jnp.ones((8, 1))
compiles = []
for _ in range(6):
    state = train_step(state, x, y)  # error: JX203
    compiles.append(train_step._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
