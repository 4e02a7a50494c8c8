# oracle: raises TracerBoolConversionError: Attempted boolean conversion of traced array
import jax
import jax.numpy as jnp


def in_range(x):
    ok = (x >= 0).all() and (x < 5).all()  # error: JX101
    return jnp.where(ok, x, 0.0)


checked = jax.jit(in_range)
checked(jnp.arange(3.0))
