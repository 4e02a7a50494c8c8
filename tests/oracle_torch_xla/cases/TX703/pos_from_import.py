# oracle: raises=ImportError
# oracle-message: cannot import name 'xrt_world_size' from 'torch_xla.core.xla_model'
from torch_xla.core.xla_model import is_master_ordinal, xrt_world_size  # error: TX703

GLOBAL_BATCH = 256
per_replica = GLOBAL_BATCH // xrt_world_size()
