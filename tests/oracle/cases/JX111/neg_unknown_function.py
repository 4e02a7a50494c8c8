# oracle: runs
import jax
import jax.numpy as jnp


class Block:
    def __call__(self, x, depth):
        for _ in range(depth):
            x = jnp.tanh(x)
        return x


block = Block()
# A callable object: its signature is the bound __call__, which xlalens does not read here.
block_jit = jax.jit(block, static_argnums=1)
print(block_jit(jnp.ones(3), 2))
