# oracle: stdout compiles after 3 and 6 steps: 1 1
import jax
import jax.numpy as jnp


@jax.jit
def ema_update(ema, loss, decay=0.9):
    return decay * ema + (1 - decay) * loss


class Trainer:
    def __init__(self, w):
        self.w = w
        self.ema = jnp.zeros(())

    def step(self, x, y):
        loss, grads = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(self.w)
        self.w = self.w - 0.05 * grads
        self.ema = ema_update(self.ema, loss)
        return self.ema


trainer = Trainer(jnp.zeros((4, 1)))
compiles = []
for step in range(6):
    smoothed = trainer.step(jnp.ones((8, 4)), jnp.ones((8, 1)))
    compiles.append(ema_update._cache_size())
print("compiles after 3 and 6 steps:", compiles[2], compiles[5])
