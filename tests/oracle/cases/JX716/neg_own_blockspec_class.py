# oracle: runs
import jax.numpy as jnp


class BlockSpec:
    def __init__(self, index_map, block_shape):
        self.index_map, self.block_shape = index_map, block_shape


spec = BlockSpec(lambda i: (i, 0), (8, 128))
print(spec.block_shape, jnp.ones(2).sum())
