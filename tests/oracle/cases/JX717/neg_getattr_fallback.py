# oracle: runs
from jax.experimental.pallas import tpu as pltpu

try:
    Params = pltpu.TPUCompilerParams
except AttributeError:
    Params = pltpu.CompilerParams
print(Params(dimension_semantics=("arbitrary",)).dimension_semantics)
