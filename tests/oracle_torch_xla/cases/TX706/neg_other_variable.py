# oracle: devices=1
# oracle-output-absent: will be deprecated after the 2.6 release
import os

os.environ["XLA_FLAGS"] = "--xla_dump_to=/tmp/xlalens_unused"
os.environ.pop("XLA_FLAGS")

import torch
import torch_xla

print(torch.ones(2, device=torch_xla.device()).sum().item())
