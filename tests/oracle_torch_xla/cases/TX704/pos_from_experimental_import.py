# oracle: raises=ImportError
# oracle-message: cannot import name 'xla_sharding' from 'torch_xla.experimental'
from torch_xla.experimental import xla_sharding  # error: TX704

SPEC = ("data", None)
