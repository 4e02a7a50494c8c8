# oracle: raises=ImportError
# oracle-message: cannot import name 'pjrt' from 'torch_xla.experimental'
from torch_xla.experimental import pjrt  # error: TX705

world = pjrt.world_size()
