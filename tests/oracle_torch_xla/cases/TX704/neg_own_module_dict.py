# oracle: devices=1
import torch_xla

xla_sharding = {"mode": "fsdp"}
print(xla_sharding["mode"], torch_xla.device())
