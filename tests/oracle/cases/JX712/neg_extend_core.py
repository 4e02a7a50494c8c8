# oracle: runs
import warnings

import jax
import jax.extend.core as jex_core
import jax.numpy as jnp

warnings.simplefilter("error", DeprecationWarning)
double_p = jex_core.Primitive("double")
double_p.def_impl(lambda x: x * 2)
print(double_p.bind(jnp.ones(2)), jax.typeof(jnp.ones(2)))
