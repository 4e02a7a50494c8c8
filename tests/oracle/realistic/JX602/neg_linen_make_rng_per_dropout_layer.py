# oracle: stdout same mask in both layers: False
import flax.linen as nn
import jax
import jax.numpy as jnp


class NoisyBlock(nn.Module):
    rate: float = 0.5

    @nn.compact
    def __call__(self, x):
        masks = []
        for _ in range(2):
            keep = jax.random.bernoulli(self.make_rng("dropout"), 1.0 - self.rate, x.shape)
            masks.append(keep)
            x = jnp.where(keep, x / (1.0 - self.rate), 0.0)
        return x, masks


block = NoisyBlock()
(out, masks), _ = block.init_with_output({"params": jax.random.key(0), "dropout": jax.random.key(1)}, jnp.ones((4, 16)))
print("same mask in both layers:", bool(jnp.all(masks[0] == masks[1])))
