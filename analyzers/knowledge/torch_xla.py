"""What torch and torch_xla APIs do to the lazy graph, by fully qualified name or method name.

On an XLA device every tensor operation is recorded into a pending graph that runs only at a sync
point. These tables say which calls create XLA devices, tensors and loaders, which ones cut the
graph (sync points), which ones read a tensor's value on the host (an implicit sync plus a
device-to-host copy), and which ones produce a shape that depends on the data. Facts are from
torch_xla 2.9.0 (``torch_xla/torch_xla.py``, ``core/xla_model.py``,
``distributed/parallel_loader.py``) and measured with the torch_xla oracle tier.
"""

from __future__ import annotations

DEVICE_FUNCTIONS: frozenset[str] = frozenset(
    {
        "torch_xla.device",
        "torch_xla.core.xla_model.xla_device",
    }
)
"""Calls that return an XLA device."""

SYNC_FUNCTIONS: frozenset[str] = frozenset(
    {
        "torch_xla.sync",
        "torch_xla.core.xla_model.mark_step",
    }
)
"""Calls that cut the pending graph, compile it if it is new, and run it."""

WAIT_DEVICE_OPS = "torch_xla.core.xla_model.wait_device_ops"
"""Blocks until every graph already dispatched has run. ``torch_xla.sync(wait=True)`` does not:
measured with torch_xla 2.9 on CPU, it returns once the graph is dispatched, before it has run."""

MARK_STEP = "torch_xla.core.xla_model.mark_step"
"""The deprecated spelling of :data:`SYNC_FUNCTIONS`; fixes use it in files that already do."""

STEP_CONTEXT = "torch_xla.step"
"""``with torch_xla.step():`` syncs when the block exits."""

COMPILE = "torch_xla.compile"
"""``torch_xla.compile(fn)`` (or the decorator) syncs before and after each call of ``fn``."""

OPTIMIZER_STEP = "torch_xla.core.xla_model.optimizer_step"
"""All-reduces gradients and steps the optimizer; syncs only with ``barrier=True``."""

STEP_CLOSURE = "torch_xla.core.xla_model.add_step_closure"
"""Runs a callback after the step's graph has run: the clean way to log tensor values."""

MASTER_PRINT = "torch_xla.core.xla_model.master_print"
"""Prints on the master ordinal; formats its arguments like ``print``."""

DEVICE_LOADERS: frozenset[str] = frozenset(
    {
        "torch_xla.distributed.parallel_loader.MpDeviceLoader",
    }
)
"""Loaders whose batches are XLA tensors and whose iteration syncs once per batch."""

PARALLEL_LOADER = "torch_xla.distributed.parallel_loader.ParallelLoader"
"""``ParallelLoader(...).per_device_loader(device)`` behaves as a device loader."""

PLATEAU_SCHEDULER = "torch.optim.lr_scheduler.ReduceLROnPlateau"
"""``scheduler.step(metric)`` converts the metric with ``float()``: a host read when it is a tensor."""

GRADIENT_NORM_FUNCTIONS: frozenset[str] = frozenset(
    {"torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad.clip_grad_norm_"}
)
"""Functions of parameters that return the total gradient norm as a tensor on the parameters' device;
``clip_grad_norm_(..., error_if_nonfinite=True)`` also tests it on the host."""

DATA_LOADERS: frozenset[str] = frozenset(
    {
        "torch.utils.data.DataLoader",
        "torch.utils.data.dataloader.DataLoader",
    }
)
"""Host-side loaders: batches are CPU tensors; the last batch is short unless ``drop_last=True``."""

TRANSPARENT_ITERATORS: frozenset[str] = frozenset(
    {
        "builtins.iter",
        "builtins.reversed",
        "itertools.islice",
        "tqdm.tqdm",
        "tqdm.auto.tqdm",
        "tqdm.notebook.tqdm",
    }
)
"""Wrappers whose items are the items of their first argument."""

TENSOR_FACTORIES_WITHOUT_INPUT: frozenset[str] = frozenset(
    {
        "torch.arange",
        "torch.empty",
        "torch.eye",
        "torch.full",
        "torch.linspace",
        "torch.ones",
        "torch.rand",
        "torch.randint",
        "torch.randn",
        "torch.randperm",
        "torch.tensor",
        "torch.as_tensor",
        "torch.zeros",
    }
)
"""Constructors whose result lives on ``device=`` when it is given."""

NOT_TENSOR_PREFIXES: tuple[str, ...] = (
    "torch.optim.",
    "torch.utils.",
    "torch.distributed.",
    "torch.nn.init.",
    "torch.nn.utils.",
    "torch.cuda.",
    "torch.backends.",
    "torch.autograd.",
    "torch.jit.",
    "torch.compile",
    "torch.save",
    "torch.load",
    "torch.manual_seed",
    "torch.no_grad",
    "torch.enable_grad",
    "torch.inference_mode",
    "torch.set_grad_enabled",
    "torch.device",
    "torch.is_tensor",
    "torch.numel",
    "torch.get_default_dtype",
    "torch.set_default_dtype",
    "torch.equal",
    "torch.allclose",
)
"""``torch.*`` names that do not return a tensor computed from their tensor arguments."""

HOST_READ_FUNCTIONS: dict[str, str] = {
    "torch.equal": "returns a Python bool",
    "torch.allclose": "returns a Python bool",
    "numpy.array": "copies the tensor into a NumPy array",
    "numpy.asarray": "copies the tensor into a NumPy array",
}
"""Functions of a tensor that read its value on the host, and what they do."""

HOST_READ_BUILTINS: frozenset[str] = frozenset(
    {"builtins.float", "builtins.int", "builtins.bool", "builtins.complex", "builtins.str", "builtins.repr"}
)
"""Builtins that convert a tensor to a Python value, reading it on the host."""

HOST_READ_METHODS: dict[str, str] = {
    "item": "copies the value to the host",
    "tolist": "copies the values to the host",
    "cpu": "copies the tensor to the host",
    "numpy": "copies the tensor to the host",
}
"""Tensor methods that read the tensor's value on the host."""

SHAPE_METHODS: frozenset[str] = frozenset(
    {
        "size",
        "dim",
        "numel",
        "nelement",
        "element_size",
        "is_contiguous",
        "get_device",
        "stride",
        "type",
        "data_ptr",
        "ndimension",
        "is_floating_point",
        "is_complex",
    }
)
"""Tensor methods answered from metadata, without running the graph."""

METADATA_ATTRIBUTES: frozenset[str] = frozenset(
    {"shape", "dtype", "device", "ndim", "requires_grad", "is_leaf", "layout", "names"}
)
"""Tensor attributes that are not tensors."""

BOOLEAN_METHODS: frozenset[str] = frozenset(
    {
        "eq",
        "ne",
        "gt",
        "lt",
        "ge",
        "le",
        "greater",
        "less",
        "logical_and",
        "logical_or",
        "logical_not",
        "logical_xor",
        "isnan",
        "isinf",
        "isfinite",
        "bool",
        "all",
        "any",
        "isclose",
        "signbit",
    }
)
"""Tensor methods (and ``torch.*`` functions of the same names) whose result is a boolean tensor."""

CONTAINER_METHODS: frozenset[str] = frozenset(
    {"split", "chunk", "unbind", "sort", "topk", "max", "min", "kthvalue", "median", "mode", "tensor_split"}
)
"""Tensor methods (and ``torch.*`` functions) that may return a tuple of tensors."""

DATA_DEPENDENT_SHAPE: dict[str, str] = {
    "nonzero": "`nonzero`",
    "argwhere": "`argwhere`",
    "masked_select": "`masked_select`",
    "unique": "`unique`",
    "unique_consecutive": "`unique_consecutive`",
    "bincount": "`bincount`: one bin per value up to the largest",
}
"""Tensor methods and ``torch.*`` functions whose output shape depends on the values."""

REPEAT_INTERLEAVE = "repeat_interleave"
"""``repeat_interleave(x, repeats)``: data-dependent length when ``repeats`` is a tensor (not a Python int)."""

ONE_HOT = "torch.nn.functional.one_hot"
"""Without ``num_classes`` (or with -1) it reads the largest label on the host to size its output."""

SIZE_ARGUMENT_METHODS: frozenset[str] = frozenset(
    {"narrow", "view", "reshape", "expand", "repeat", "new_zeros", "new_ones", "new_empty", "new_full", "unfold"}
)
"""Tensor methods whose Python int arguments are sizes or offsets of the result (part of the graph)."""

GROWING_FUNCTIONS: frozenset[str] = frozenset(
    {"torch.cat", "torch.concat", "torch.concatenate", "torch.hstack", "torch.vstack"}
)
"""Functions that make a tensor longer when it is fed back into them every step."""

SCALAR_METHODS: frozenset[str] = frozenset({"mul", "add", "sub", "div", "mul_", "add_", "sub_", "div_"})
"""Tensor methods whose scalar argument becomes a graph constant or a graph input."""

SCALAR_FUNCTIONS: frozenset[str] = frozenset({"torch.mul", "torch.add", "torch.sub", "torch.div"})
"""``torch.*`` functions whose scalar argument becomes a graph constant or a graph input."""

SPECIAL_SCALARS: frozenset[float] = frozenset({0.0, 1.0, -1.0})
"""Python scalars torch_xla bakes into the graph as constants (``IsSpecialScalar``); others are inputs."""

LOGGING_MODULE_FUNCTIONS: frozenset[str] = frozenset(
    {"logging.warning", "logging.error", "logging.critical", "logging.exception", "logging.warn"}
)
"""``logging`` calls at levels that are on by default, so their arguments are formatted."""

LOGGER_LEVEL_METHODS: frozenset[str] = frozenset({"warning", "error", "critical", "exception", "warn"})
"""Logger methods at levels that are on by default."""

SUPPORTED_VERSION_PAIRS = "torch and torch_xla releases share major.minor: torch 2.9.x goes with torch_xla 2.9.x"
"""The pairing rule TX901 checks (torch_xla's ``_XLAC`` links one exact libtorch)."""

KNOWN_LIBRARIES: tuple[str, ...] = (
    "torch",
    "torch_xla",
    "builtins.",
    "numpy",
    "math",
    "logging",
    "time",
    "os",
    "sys",
    "itertools",
    "functools",
    "random",
    "tqdm",
    "json",
    "datetime",
    "collections",
    "copy",
    "warnings",
)
"""Libraries that never sync an XLA graph behind the analysis's back (their host reads are rules of their own)."""

# -- SPMD (torch_xla/distributed/spmd/xla_sharding.py @ v2.9.0) ----------------------------------

_SPMD_MODULES: tuple[str, ...] = ("torch_xla.distributed.spmd", "torch_xla.distributed.spmd.xla_sharding")


def _spmd(name: str) -> frozenset[str]:
    return frozenset(f"{module}.{name}" for module in _SPMD_MODULES)


SPMD_MESH: frozenset[str] = _spmd("Mesh")
"""``Mesh(device_ids, mesh_shape, axis_names=None)``: ids are reshaped row-major to ``mesh_shape``."""

SPMD_1D_MESH: frozenset[str] = _spmd("get_1d_mesh")
"""``get_1d_mesh(axis_name=None)``: every device on one axis."""

SPMD_HYBRID_MESH: frozenset[str] = _spmd("HybridMesh")
"""``HybridMesh(*, ici_mesh_shape, dcn_mesh_shape=None, axis_names=None)``: the mesh shape is their product."""

SPMD_MARK_SHARDING: frozenset[str] = _spmd("mark_sharding") | _spmd("mark_sharding_with_gradients")
"""``mark_sharding(t, mesh, partition_spec)`` and its autograd twin: both check the spec the same way."""

GLOBAL_DEVICE_COUNT: frozenset[str] = frozenset({"torch_xla.runtime.global_runtime_device_count"})
"""The number of devices a ``Mesh`` must use, all of them (``Mesh.__init__`` asserts it)."""

TENSOR_SIZE_FACTORIES: frozenset[str] = frozenset(
    {"torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty"}
)
"""Constructors whose positional arguments (or one tuple argument, or ``size=``) are the shape."""

SHAPE_KEEPING_METHODS: frozenset[str] = frozenset(
    {
        "to",
        "float",
        "half",
        "bfloat16",
        "double",
        "int",
        "long",
        "bool",
        "contiguous",
        "detach",
        "clone",
        "requires_grad_",
        "cpu",
    }
)
"""Tensor methods whose result has the receiver's shape (``.to(device)`` included)."""

SIZED_LAYERS: dict[str, tuple[str, str]] = {
    "torch.nn.Linear": ("in_features", "out_features"),
    "torch.nn.Embedding": ("num_embeddings", "embedding_dim"),
}
"""Layers whose parameter shapes follow from their first two arguments (and their keyword names):
``Linear(in, out)`` has ``weight`` ``(out, in)`` and ``bias`` ``(out,)``; ``Embedding(n, d)`` has ``weight``
``(n, d)``."""

CONV_LAYERS: dict[str, int] = {"torch.nn.Conv1d": 1, "torch.nn.Conv2d": 2, "torch.nn.Conv3d": 3}
"""Convolutions and their number of spatial dimensions: ``Conv2d(in, out, k)`` has ``weight``
``(out, in // groups, k, k)`` (``k`` may be a tuple) and ``bias`` ``(out,)``."""

PARAMETER_FREE_LAYERS: frozenset[str] = frozenset(
    {
        "torch.nn.ReLU",
        "torch.nn.GELU",
        "torch.nn.SiLU",
        "torch.nn.Tanh",
        "torch.nn.Sigmoid",
        "torch.nn.LeakyReLU",
        "torch.nn.ELU",
        "torch.nn.Mish",
        "torch.nn.Softmax",
        "torch.nn.LogSoftmax",
        "torch.nn.Dropout",
        "torch.nn.Identity",
        "torch.nn.Flatten",
    }
)
"""Layers without parameters: ``named_parameters()`` of a ``Sequential`` skips them."""

SEQUENTIAL = "torch.nn.Sequential"
"""``nn.Sequential(a, b, c)[i]`` is its ``i``-th layer."""
