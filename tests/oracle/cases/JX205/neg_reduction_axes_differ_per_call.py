# oracle: stdout compiles per call: 3, compiles when hoisted: 3
import logging
from functools import partial

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith(("Compiling jit(<lambda>", "Compiling jit(reduce_hoisted")):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)


def reduce_over(x, axes):
    return jax.jit(lambda v: v.sum(axis=axes))(x)  # the axes are part of the program


x = jnp.ones((2, 3, 4))
for axes in ((0,), (1,), (0, 2)):
    reduce_over(x, axes)
per_call = len(compiles)


@partial(jax.jit, static_argnames="axes")
def reduce_hoisted(v, axes):
    return v.sum(axis=axes)


for axes in ((0,), (1,), (0, 2)):
    reduce_hoisted(x, axes=axes)
print(f"compiles per call: {per_call}, compiles when hoisted: {len(compiles) - per_call}")
