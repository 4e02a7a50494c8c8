# oracle: stdout train/loss
import jax
import jax.numpy as jnp
import optax


class MetricLogger:
    def __init__(self):
        self.history = []

    def log(self, name, value):
        self.history.append((name, float(value)))


class Trainer:
    def __init__(self, lr=1e-2):
        self.tx = optax.adam(lr)
        self.logger = MetricLogger()
        self.train_step = jax.jit(self._train_step)

    def loss_fn(self, params, x, y):
        return jnp.mean((x @ params["w"] - y) ** 2)

    def _train_step(self, params, opt_state, x, y):
        loss, grads = jax.value_and_grad(self.loss_fn)(params, x, y)
        updates, opt_state = self.tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    def fit(self, params, opt_state, x, y, steps=2):
        for _ in range(steps):
            params, opt_state, loss = self.train_step(params, opt_state, x, y)
            self.logger.log("train/loss", loss)
        return params, opt_state


trainer = Trainer()
params = {"w": jnp.ones((3, 1))}
opt_state = trainer.tx.init(params)
params, opt_state = trainer.fit(params, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
print(trainer.logger.history)
