# oracle: devices=1
import warnings

import torch
import torch_xla
import torch_xla.core.xla_model as xm

warnings.simplefilter("error", DeprecationWarning)
step_marker = torch_xla.sync if hasattr(torch_xla, "sync") else xm.mark_step
x = torch.ones(2, device=torch_xla.device()) * 3
step_marker()
