# oracle: raises=DeprecationWarning
# oracle-message: Use torch_xla.device instead
import warnings

import torch
from torch_xla.core.xla_model import xla_device  # error: TX702

warnings.simplefilter("error", DeprecationWarning)
CONFIG = {"device_index": 0}


def build(config):
    return torch.nn.Linear(4, 2).to(xla_device(n=config["device_index"]))


build(CONFIG)
