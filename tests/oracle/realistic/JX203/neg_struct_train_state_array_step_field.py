# oracle: stdout compiles after 3 and 6 steps: 1 1
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class TrainState:
    params: dict
    step: jax.Array
    lr: float = struct.field(pytree_node=False, default=0.1)

    def apply_gradients(self, grads):
        params = jax.tree.map(lambda p, g: p - self.lr * g, self.params, grads)
        return self.replace(params=params, step=self.step + 1)


@jax.jit
def train_step(state, x, y):
    grads = jax.grad(lambda p: jnp.mean((x @ p["w"] - y) ** 2))(state.params)
    return state.apply_gradients(grads)


state = TrainState(params={"w": jnp.zeros((4, 1))}, step=jnp.array(0))
x, y = jnp.ones((8, 4)), jnp.ones((8, 1))
compiles = []
for _ in range(6):
    state = train_step(state, x, y)
    compiles.append(train_step._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
