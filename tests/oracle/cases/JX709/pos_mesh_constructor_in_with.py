# oracle: raises DeprecationWarning: `with mesh:` context manager has been deprecated
import warnings

import jax
import numpy as np
from jax.sharding import Mesh

warnings.simplefilter("error", DeprecationWarning)
with Mesh(np.array(jax.devices()).reshape(8), ("x",)):  # error: JX709
    pass
