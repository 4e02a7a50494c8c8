# oracle: devices=1
from torch_xla import runtime as pjrt

print(pjrt.world_size(), pjrt.device_type(), pjrt.local_ordinal())
