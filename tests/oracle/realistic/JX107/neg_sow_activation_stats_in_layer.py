# oracle: stdout block0
import flax.linen as nn
import jax
import jax.numpy as jnp

STATS_LOG = []


class Block(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        h = nn.relu(nn.Dense(self.features)(x))
        self.sow("intermediates", "std", h.std())
        return h


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = Block(8, name="block0")(x)
        return Block(4, name="block1")(x)


model = Net()
x = jnp.ones((2, 3))
params = jax.jit(model.init)(jax.random.PRNGKey(0), x)["params"]
_, state = jax.jit(lambda p, x: model.apply({"params": p}, x, mutable=["intermediates"]))(params, x)
for name, stats in state["intermediates"].items():
    STATS_LOG.append((name, stats["std"][0]))
for name, std in STATS_LOG:
    print(name, std + 0.0)
