# oracle: runs
import warnings

import jax.numpy as jnp
from jax.experimental.pallas import tpu as pltpu

warnings.simplefilter("error", DeprecationWarning)
scratch = pltpu.VMEM((8, 128), jnp.float32)
print(scratch, pltpu.SemaphoreType.DMA, pltpu.CompilerParams())
