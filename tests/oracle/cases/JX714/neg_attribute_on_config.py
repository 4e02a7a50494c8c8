# oracle: runs
import types

import jax.numpy as jnp

cfg = types.SimpleNamespace(fix=True, product="vit")
if cfg.fix:
    print(cfg.product, jnp.ones(2))
