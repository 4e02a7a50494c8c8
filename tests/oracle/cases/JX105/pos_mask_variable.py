# oracle: raises NonConcreteBooleanIndexError: Array boolean indices must be concrete
import jax.numpy as jnp
from jax import jit as compile_fn


def drop_nans(x):
    keep = ~jnp.isnan(x)
    return x[keep]  # error: JX105


compile_fn(drop_nans)(jnp.array([1.0, jnp.nan, 3.0]))
