# oracle: raises=AttributeError
# oracle-message: module 'torch_xla.core.xla_model' has no attribute 'xrt_world_size'
import torch
import torch_xla.core.xla_model as xm


def sampler_args(dataset_size):
    return {"num_replicas": xm.xrt_world_size(), "rank": xm.get_ordinal(), "size": dataset_size}  # error: TX703


sampler_args(1024)
