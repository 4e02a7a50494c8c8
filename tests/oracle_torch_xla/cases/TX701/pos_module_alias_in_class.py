# oracle: raises=DeprecationWarning
# oracle-message: Use torch_xla.sync instead
import warnings

import torch
import torch_xla
import torch_xla.core.xla_model as xla_model

warnings.simplefilter("error", DeprecationWarning)


class Trainer:
    def __init__(self):
        self.device = torch_xla.device()

    def end_step(self):
        xla_model.mark_step(wait=True)  # error: TX701


trainer = Trainer()
y = torch.zeros(2, device=trainer.device) + 1
trainer.end_step()
