# oracle: devices=1
import warnings

import torch_xla
import torch_xla.core.xla_model as xm

warnings.simplefilter("error", DeprecationWarning)
print(xm.xla_device_hw(torch_xla.device()), xm.get_local_ordinal())
