# oracle: raises=DeprecationWarning
# oracle-message: Use torch_xla.sync instead
import warnings

import torch
import torch_xla
from torch_xla.core.xla_model import mark_step  # error: TX701

warnings.simplefilter("error", DeprecationWarning)


def flush():
    mark_step()


x = torch.ones(3, device=torch_xla.device()) * 2
flush()
