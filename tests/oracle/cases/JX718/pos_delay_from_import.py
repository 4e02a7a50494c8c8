# oracle: raises ImportError: cannot import name 'delay' from 'jax.experimental.pallas.tpu'
from jax.experimental.pallas.tpu import VMEM, delay  # error: JX718


def spin(n):
    delay(n)
