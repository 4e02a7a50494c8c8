# oracle: raises=AttributeError
# oracle-message: module 'torch_xla.core.xla_model' has no attribute 'get_ordinal'
import torch_xla.core.xla_model as xm

if xm.get_ordinal() == 0:  # error: TX703
    print("master")
