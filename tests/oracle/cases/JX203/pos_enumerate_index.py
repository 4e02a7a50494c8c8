# oracle: stdout compiles: 4
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="epoch")
def scaled(x, epoch):
    return x * (epoch + 1)


batches = [jnp.ones(3)] * 4
for epoch, batch in enumerate(batches):
    scaled(batch, epoch=epoch)  # error: JX203
print("compiles:", scaled._cache_size())
