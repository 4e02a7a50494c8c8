# oracle: raises TypeError: cond branches must have equal output types
import jax
import jax.numpy as jnp
from jax import lax


class ReinforceUpdater:
    def __init__(self, lr=0.1):
        self.lr = lr

    def policy_loss(self, w, obs, actions, returns):
        logp = jax.nn.log_softmax(obs @ w)
        chosen = jnp.take_along_axis(logp, actions[:, None], axis=-1)[:, 0]
        return -jnp.mean(chosen * returns)

    def _skip(self, w, obs, actions, returns):
        return jnp.zeros((), jnp.int32), jnp.zeros_like(w)

    def _update(self, w, obs, actions, returns):
        return jax.value_and_grad(self.policy_loss)(w, obs, actions, returns)

    def step(self, w, obs, actions, returns):
        has_signal = jnp.any(returns != 0)
        loss, g = lax.cond(has_signal, self._update, self._skip, w, obs, actions, returns)  # error: JX304
        return w - self.lr * g, loss


updater = ReinforceUpdater()
w, loss = jax.jit(updater.step)(jnp.zeros((3, 2)), jnp.ones((4, 3)), jnp.array([0, 1, 1, 0]), jnp.ones(4))
print(loss)
