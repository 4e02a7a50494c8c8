# oracle: raises UnexpectedTracerError: Encountered an unexpected tracer
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self):
        self.grad_norm = None
        self._step = jax.jit(self._step_impl)

    def _step_impl(self, w):
        g = jax.grad(lambda v: jnp.sum(v**2))(w)
        self.grad_norm = jnp.linalg.norm(g)  # error: JX107
        return w - 0.1 * g

    def run(self, w):
        return self._step(w)


trainer = Trainer()
trainer.run(jnp.arange(3.0))
trainer.grad_norm + 0.0
