# oracle: runs
import jax
from jax.experimental.pallas import tpu as pltpu

if jax.__version_info__ < (0, 7, 0):
    params = pltpu.TPUCompilerParams(dimension_semantics=("parallel",))
else:
    params = pltpu.CompilerParams(dimension_semantics=("parallel",))
print(params)
