# oracle: raises DeprecationWarning: pltpu.semaphore is deprecated, use pl.semaphore instead.
import warnings

from jax.experimental.pallas import tpu as pltpu

warnings.simplefilter("error", DeprecationWarning)
SEMAPHORE_TYPES = (pltpu.semaphore, pltpu.DeviceIdType)  # error: JX718
