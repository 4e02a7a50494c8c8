# oracle: raises ImportError: cannot import name 'with_sharding_constraint' from 'jax.experimental.pjit'
import jax
import jax.numpy as jnp
from jax.experimental.pjit import with_sharding_constraint  # error: JX702
from jax.sharding import PartitionSpec as P


@jax.jit
def forward(x):
    h = x * 2
    return with_sharding_constraint(h, P("data"))
