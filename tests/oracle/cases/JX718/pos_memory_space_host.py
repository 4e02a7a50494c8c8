# oracle: raises AttributeError: HOST
import jax.experimental.pallas.tpu as pltpu

OFFLOAD_TO = pltpu.MemorySpace.HOST  # error: JX718
