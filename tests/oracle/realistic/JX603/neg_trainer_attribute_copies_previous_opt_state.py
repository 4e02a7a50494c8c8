# oracle: stdout opt state change:
import jax
import jax.numpy as jnp


def _rmsprop(params, opt_state, grads, lr=1e-2, decay=0.9):
    opt_state = jax.tree.map(lambda v, g: decay * v + (1 - decay) * g**2, opt_state, grads)
    params = jax.tree.map(lambda p, g, v: p - lr * g / (jnp.sqrt(v) + 1e-8), params, grads, opt_state)
    return params, opt_state


class Trainer:
    def __init__(self, params):
        self.params = params
        self.opt_state = jax.tree.map(jnp.zeros_like, params)
        self._prev_opt_state = None
        self._update = jax.jit(_rmsprop, donate_argnums=(0, 1))

    def train_step(self, x):
        grads = jax.grad(lambda p: jnp.sum((x @ p["w"]) ** 2))(self.params)
        self._prev_opt_state = jax.tree.map(jnp.copy, self.opt_state)
        self.params, self.opt_state = self._update(self.params, self.opt_state, grads)

    def opt_state_change(self):
        return jnp.abs(self.opt_state["w"] - self._prev_opt_state["w"]).max()


trainer = Trainer({"w": jnp.ones((4, 2))})
trainer.train_step(jnp.ones((3, 4)))
print("opt state change:", trainer.opt_state_change())
