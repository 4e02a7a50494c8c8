# oracle: stdout compiles after 3 and 6 steps: 3 6
import jax
import jax.numpy as jnp


@jax.jit
def ema_of(history, decay=0.9):
    weights = decay ** jnp.arange(history.shape[0])[::-1]
    return jnp.sum(weights * history) / jnp.sum(weights)


class Trainer:
    def __init__(self, w):
        self.w = w
        self.losses = []

    def step(self, x, y):
        loss, grads = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(self.w)
        self.w = self.w - 0.05 * grads
        self.losses.append(loss)
        return ema_of(jnp.stack(self.losses))  # error: JX202


trainer = Trainer(jnp.zeros((4, 1)))
compiles = []
for step in range(6):
    smoothed = trainer.step(jnp.ones((8, 4)), jnp.ones((8, 1)))
    compiles.append(ema_of._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
