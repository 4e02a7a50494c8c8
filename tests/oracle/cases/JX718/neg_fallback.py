# oracle: runs
from jax.experimental import pallas as pl

try:
    from jax.experimental.pallas.tpu import ANY
except ImportError:
    ANY = pl.ANY
print(pl.BlockSpec(memory_space=ANY).memory_space)
