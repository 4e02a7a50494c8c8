# oracle: raises=ModuleNotFoundError
# oracle-message: No module named 'torch_xla.experimental.pjrt'
from torch_xla.experimental.pjrt import global_ordinal, using_pjrt  # error: TX705

print(global_ordinal(), using_pjrt())
