# oracle: raises ModuleNotFoundError: No module named 'jax.experimental.maps'
import jax.experimental.maps as maps  # error: JX704
import jax.numpy as jnp

CONFIG = {"axis": "batch"}
f = maps.xmap(lambda x: x * 2, in_axes=[CONFIG["axis"], ...], out_axes=[CONFIG["axis"], ...])
