# oracle: raises UnexpectedTracerError: Encountered an unexpected tracer
import flax.linen as nn
import jax
import jax.numpy as jnp

ACTIVATION_STATS = []


def record_stats(name, h):
    ACTIVATION_STATS.append((name, h.std()))  # error: JX107


class Block(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        h = nn.relu(nn.Dense(self.features)(x))
        record_stats(self.name, h)
        return h


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = Block(8, name="block0")(x)
        return Block(4, name="block1")(x)


model = Net()
x = jnp.ones((2, 3))
params = jax.jit(model.init)(jax.random.PRNGKey(0), x)
for name, std in ACTIVATION_STATS:
    print(name, std + 0.0)
