# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return x.sum()


x = jnp.arange(3.0)
s = total(x)
if s > 0:
    print("positive")
while s < 10:
    s = s * 2
assert (x >= 0).all()
label = "big" if s > 5 else "small"
