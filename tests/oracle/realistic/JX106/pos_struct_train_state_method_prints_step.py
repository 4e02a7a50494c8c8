# oracle: stdout applying update at step JitTracer(
import jax
import jax.numpy as jnp
import optax
from flax import struct


@struct.dataclass
class TrainState:
    step: jax.Array
    params: dict
    opt_state: optax.OptState
    tx: optax.GradientTransformation = struct.field(pytree_node=False)

    def apply_gradients(self, grads):
        print("applying update at step", self.step)  # error: JX106
        updates, opt_state = self.tx.update(grads, self.opt_state, self.params)
        params = optax.apply_updates(self.params, updates)
        return self.replace(step=self.step + 1, params=params, opt_state=opt_state)


def create_state(params, tx):
    return TrainState(step=jnp.array(0), params=params, opt_state=tx.init(params), tx=tx)


@jax.jit
def train_step(state, x, y):
    grads = jax.grad(lambda p: jnp.mean((x @ p["w"] - y) ** 2))(state.params)
    return state.apply_gradients(grads)


state = create_state({"w": jnp.zeros(3)}, optax.sgd(0.1))
state = train_step(state, jnp.ones((2, 3)), jnp.ones(2))
