# oracle: stdout constant in the program: True
import functools

import jax
import jax.numpy as jnp
import numpy as np


def project(basis, x):
    return basis @ x


BASIS = np.random.default_rng(1).standard_normal((1024, 1024), dtype=np.float32)
project_fast = jax.jit(functools.partial(project, BASIS))  # error: JX804

program = project_fast.lower(jnp.ones(1024)).as_text()
print("constant in the program:", len(program) > 1_000_000)
