# oracle: devices=1
try:
    import torch_xla.distributed.spmd as xs
except ImportError:
    import torch_xla.experimental.xla_sharding as xs

print(xs.Mesh.__name__)
