# oracle: stdout compiles in loop: 4, distinct programs: 4
"""An autotuning sweep defines `@jax.jit @partial(jax.shard_map, ...)` kernels inside the loop, closing
over the tile sizes being tried: each candidate is a different program, so nothing can be hoisted."""

import functools
import itertools
import logging

import jax
import jax.numpy as jnp
from jax.sharding import AxisType
from jax.sharding import PartitionSpec as P

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Compiling jit(kernel_fn"):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)
mesh = jax.make_mesh((1,), ("x",), axis_types=(AxisType.Auto,))


def reduce_blocks(x, *, num_blocks, tile_size):
    return x.reshape(num_blocks, -1).sum(axis=0)[:tile_size]


def tune(a):
    best = None
    for num_blocks, tile_size in itertools.product((2, 4), (4, 8)):
        try:

            @jax.jit
            @functools.partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
            def kernel_fn(x):
                return reduce_blocks(x, num_blocks=num_blocks, tile_size=tile_size)

            out = kernel_fn(a).block_until_ready()
        except ValueError:
            continue
        best = (num_blocks, tile_size) if best is None or out.sum() > 0 else best
    return best


tune(jnp.arange(16.0))
print(f"compiles in loop: {len(compiles)}, distinct programs: {len(set(itertools.product((2, 4), (4, 8))))}")
