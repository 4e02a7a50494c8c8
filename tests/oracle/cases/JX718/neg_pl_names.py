# oracle: runs
import warnings

from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

warnings.simplefilter("error", DeprecationWarning)
print(pl.ANY, pl.semaphore, pl.DeviceIdType.MESH, pl.HOST, pl.delay, pltpu.VMEM, pltpu.SMEM)
