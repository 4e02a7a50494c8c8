# oracle: raises TypeError: Shapes must be 1D sequences of concrete values of integer type
import equinox as eqx
import jax
import jax.numpy as jnp


class LowRankAdapter(eqx.Module):
    down: jax.Array
    up: jax.Array
    rank: jax.Array

    def __init__(self, dim, rank, key):
        self.down = jax.random.normal(key, (dim, rank)) * 0.01
        self.up = jnp.zeros((rank, dim))
        self.rank = jnp.asarray(rank)

    def delta(self):
        gate = jnp.eye(self.rank)  # error: JX104
        return self.down @ gate @ self.up

    def __call__(self, x, w):
        return x @ (w + self.delta())


@eqx.filter_jit
def forward(adapter, x, w):
    return adapter(x, w)


adapter = LowRankAdapter(4, 2, jax.random.PRNGKey(0))
print(forward(adapter, jnp.ones((3, 4)), jnp.eye(4)).shape)
