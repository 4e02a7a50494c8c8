# oracle: raises UnexpectedTracerError: Encountered an unexpected tracer
import jax
import jax.numpy as jnp
import optax


class Trainer:
    def __init__(self, lr=0.1):
        self.tx = optax.sgd(lr)
        self.last_grads = None
        self.train_step = jax.jit(self._train_step)

    def loss_fn(self, params, x, y):
        return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)

    def _train_step(self, params, opt_state, x, y):
        loss, grads = jax.value_and_grad(self.loss_fn)(params, x, y)
        self.last_grads = grads  # error: JX107
        updates, opt_state = self.tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    def grad_norm(self):
        return optax.global_norm(self.last_grads)


trainer = Trainer()
params = {"w": jnp.ones((3, 1)), "b": jnp.zeros(1)}
opt_state = trainer.tx.init(params)
params, opt_state, loss = trainer.train_step(params, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
print("grad norm", trainer.grad_norm())
