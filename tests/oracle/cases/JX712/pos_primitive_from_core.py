# oracle: raises AttributeError: module 'jax.core' has no attribute 'Primitive'
import jax
import jax.core
import jax.numpy as jnp

double_p = jax.core.Primitive("double")  # error: JX712
double_p.def_impl(lambda x: x * 2)
