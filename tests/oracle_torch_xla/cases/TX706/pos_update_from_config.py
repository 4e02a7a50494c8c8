# oracle: devices=1
# oracle-output: XLA_USE_BF16 will be deprecated after the 2.6 release
import os

CONFIG = {"precision": "bf16"}
if CONFIG["precision"] == "bf16":
    os.environ.update(XLA_USE_BF16="1")  # error: TX706

import torch
import torch_xla

print(torch.ones(2, device=torch_xla.device()).sum().item())
