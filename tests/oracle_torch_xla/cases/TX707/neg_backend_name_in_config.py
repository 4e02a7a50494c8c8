# oracle: devices=1
import torch
import torch_xla

LEGACY_BACKENDS = {"torchxla_trace_once": "openxla_eval"}


def compile_with(model, name):
    return torch.compile(model, backend=LEGACY_BACKENDS.get(name, name))


print(compile_with(torch.nn.Linear(2, 2).to(torch_xla.device()), "torchxla_trace_once")(torch.ones(1, 2, device=torch_xla.device())).shape)
