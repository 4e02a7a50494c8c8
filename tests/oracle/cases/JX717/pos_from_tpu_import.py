# oracle: raises ImportError: cannot import name 'TPUMemorySpace' from 'jax.experimental.pallas.tpu'
from jax.experimental.pallas.tpu import VMEM, TPUMemorySpace  # error: JX717

SCRATCH = TPUMemorySpace.VMEM
