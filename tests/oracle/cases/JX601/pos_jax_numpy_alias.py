# oracle: raises TypeError: JAX arrays are immutable and do not support in-place item assignment
from jax import numpy as np2

a = np2.array([1.0, 2.0, 3.0])
a[2] *= 10.0  # error: JX601
