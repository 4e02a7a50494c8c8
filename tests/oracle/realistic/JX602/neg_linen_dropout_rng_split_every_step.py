# oracle: stdout same dropout mask every step: False
import flax.linen as nn
import jax
import jax.numpy as jnp


class MLP(nn.Module):
    hidden: int = 32

    @nn.compact
    def __call__(self, x, train):
        h = nn.sigmoid(nn.Dense(self.hidden)(x))
        h = nn.Dropout(0.5, deterministic=not train)(h)
        self.sow("intermediates", "dropped", h)
        return nn.Dense(1)(h)


model = MLP()
rng = jax.random.key(0)
rng, init_rng = jax.random.split(rng)
params = model.init(init_rng, jnp.ones((4, 8)), train=False)["params"]


@jax.jit
def train_step(params, x, y, dropout_rng):
    def loss_fn(params):
        pred, state = model.apply({"params": params}, x, train=True, rngs={"dropout": dropout_rng}, mutable="intermediates")
        return jnp.mean((pred - y) ** 2), state["intermediates"]["dropped"][0]

    (loss, dropped), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
    return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads), dropped != 0


x, y = jnp.ones((4, 8)), jnp.zeros((4, 1))
masks = []
for step in range(4):
    rng, dropout_rng = jax.random.split(rng)
    params, mask = train_step(params, x, y, dropout_rng)
    masks.append(mask)
print("same dropout mask every step:", all(bool(jnp.all(m == masks[0])) for m in masks))
