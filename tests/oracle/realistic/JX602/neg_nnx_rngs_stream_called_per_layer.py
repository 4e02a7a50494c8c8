# oracle: stdout same noise in both layers: False
import jax
import jax.numpy as jnp
from flax import nnx


class NoisyMLP(nnx.Module):
    def __init__(self, width, rngs):
        self.layers = nnx.List([nnx.Linear(width, width, rngs=rngs) for _ in range(2)])
        self.rngs = rngs

    def __call__(self, x, sigma=0.1):
        noises = []
        for layer in self.layers:
            noise = sigma * jax.random.normal(self.rngs.noise(), x.shape)
            noises.append(noise)
            x = jax.nn.relu(layer(x + noise))
        return x, noises


model = NoisyMLP(8, nnx.Rngs(params=0, noise=1))
out, noises = model(jnp.ones((2, 8)))
print("same noise in both layers:", bool(jnp.all(noises[0] == noises[1])))
