# oracle: raises AttributeError: module 'jax.experimental.pallas.triton' has no attribute 'TritonCompilerParams'
from jax.experimental.pallas import triton as plgpu

PARAMS = plgpu.TritonCompilerParams(num_warps=4, num_stages=2)  # error: JX717
