# oracle: stdout grad norm
import jax
import jax.numpy as jnp
import optax


class Trainer:
    def __init__(self, lr=0.1):
        self.tx = optax.sgd(lr)
        self.last_grad_norm = None
        self.train_step = jax.jit(self._train_step)

    def loss_fn(self, params, x, y):
        return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)

    def _train_step(self, params, opt_state, x, y):
        loss, grads = jax.value_and_grad(self.loss_fn)(params, x, y)
        updates, opt_state = self.tx.update(grads, opt_state, params)
        metrics = {"loss": loss, "grad_norm": optax.global_norm(grads)}
        return optax.apply_updates(params, updates), opt_state, metrics

    def step(self, params, opt_state, x, y):
        params, opt_state, metrics = self.train_step(params, opt_state, x, y)
        self.last_grad_norm = metrics["grad_norm"]
        return params, opt_state


trainer = Trainer()
params = {"w": jnp.ones((3, 1)), "b": jnp.zeros(1)}
opt_state = trainer.tx.init(params)
params, opt_state = trainer.step(params, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
print("grad norm", trainer.last_grad_norm)
