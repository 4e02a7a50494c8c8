# oracle: stdout layers equal: False
import equinox as eqx
import jax
import jax.numpy as jnp


class Block(eqx.Module):
    attn: eqx.nn.Linear
    mlp: eqx.nn.Linear

    def __init__(self, dim, key):
        attn_key, mlp_key = jax.random.split(key)
        self.attn = eqx.nn.Linear(dim, dim, key=attn_key)
        self.mlp = eqx.nn.Linear(dim, dim, key=mlp_key)

    def __call__(self, x):
        return self.mlp(jax.nn.gelu(self.attn(x)))


block = Block(8, jax.random.key(3))
print("layers equal:", bool(jnp.all(block.attn.weight == block.mlp.weight)))
