# oracle: raises AttributeError: module 'jax.experimental.pallas.tpu' has no attribute 'TPUMemorySpace'
import jax.experimental.pallas.tpu as tpu


def scratch_space(fast):
    return tpu.TPUMemorySpace.VMEM if fast else tpu.TPUMemorySpace.ANY  # error: JX717


print(scratch_space(True))
