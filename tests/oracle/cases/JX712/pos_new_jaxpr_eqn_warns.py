# oracle: raises DeprecationWarning: jax.core.new_jaxpr_eqn is deprecated. Use jax.extend.core.new_jaxpr_eqn.
import warnings

warnings.simplefilter("error", DeprecationWarning)

import jax

make_eqn = jax.core.new_jaxpr_eqn  # error: JX712
