# oracle: devices=1
import torch_xla.core.xla_model as xm

print(xm.get_local_ordinal(), xm.is_master_ordinal())
