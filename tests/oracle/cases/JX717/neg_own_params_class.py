# oracle: runs
import dataclasses

import jax.numpy as jnp


@dataclasses.dataclass
class TPUCompilerParams:
    dimension_semantics: tuple


print(TPUCompilerParams(("parallel",)), jnp.ones(1))
