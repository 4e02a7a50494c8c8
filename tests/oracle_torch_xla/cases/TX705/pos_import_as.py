# oracle: raises=ModuleNotFoundError
# oracle-message: No module named 'torch_xla.experimental.pjrt'
import torch
import torch_xla.experimental.pjrt as pjrt  # error: TX705


def is_tpu():
    return pjrt.device_type() == "TPU"
