# oracle: stdout step 1 loss: 0.0
import jax
import jax.numpy as jnp
import optax


def report(tag, loss):
    print(f"{tag} loss: {loss:.1f}")


class Trainer:
    def __init__(self, lr=0.05):
        self.tx = optax.adam(lr)
        self.step_fn = jax.jit(self._step)

    def loss(self, params, x, y):
        return jnp.mean((jnp.tanh(x @ params) - y) ** 2)

    def _step(self, params, opt_state, x, y):
        loss, grads = jax.value_and_grad(self.loss)(params, x, y)
        updates, opt_state = self.tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    def fit(self, params, opt_state, x, y, steps=2):
        for step in range(steps):
            params, opt_state, loss = self.step_fn(params, opt_state, x, y)
            report(f"step {step}", float(loss))
        return params, opt_state


trainer = Trainer()
params = jnp.ones(3) * 0.1
opt_state = trainer.tx.init(params)
params, opt_state = trainer.fit(params, opt_state, jnp.ones((4, 3)), jnp.zeros(4))
