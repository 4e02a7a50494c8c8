# oracle: runs
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import triton as plt

tpu_params = pltpu.CompilerParams(dimension_semantics=("parallel",))
gpu_params = plt.CompilerParams(num_warps=4)
print(tpu_params.dimension_semantics, gpu_params.num_warps, pltpu.MemorySpace.VMEM)
