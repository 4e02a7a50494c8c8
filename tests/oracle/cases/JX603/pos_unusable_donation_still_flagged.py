# oracle: stdout kept (no output could reuse it): True
import functools
import warnings

import jax
import jax.numpy as jnp

# JAX 0.10 on CPU deletes a donated array only when an output has its shape and dtype. Here no
# output fits, so JAX warns "Some donated buffers were not usable" and keeps the array: the read
# below works today, and breaks as soon as the function returns an array shaped like `params`.


@functools.partial(jax.jit, donate_argnums=0)
def norm(params):
    return jnp.sqrt(jnp.sum(params**2))


params = jnp.ones(4)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    n = norm(params)
print("kept (no output could reuse it):", not params.is_deleted(), float(params.sum()))  # error: JX603
