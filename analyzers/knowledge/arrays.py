"""What JAX and NumPy array APIs are: constructors, static-result functions, array-only methods.

Functions are classified only as far as the rules need: does the result depend on the values (so
it is traced under ``jit``), or only on static facts such as the shape? The interpreter evaluates
the constructors (:mod:`xlalens.analyzers.semantics.array_constructors`); dtypes themselves live in
:mod:`xlalens.explainers.calculators.dtypes`.
"""

from __future__ import annotations

from xlalens.explainers.calculators import dtypes

STATIC_RESULT_FUNCTIONS = frozenset(
    {
        "shape",
        "ndim",
        "size",
        "result_type",
        "dtype",
        "issubdtype",
        "iinfo",
        "finfo",
        "promote_types",
        "isscalar",
        "iscomplexobj",
        "isrealobj",
        "broadcast_shapes",
        "can_cast",
    }
)
"""``jax.numpy`` functions whose result is a static Python value under tracing."""

CONSTRUCTORS = frozenset(
    {
        "zeros",
        "ones",
        "empty",
        "full",
        "arange",
        "eye",
        "identity",
        "linspace",
        "array",
        "asarray",
        "zeros_like",
        "ones_like",
        "empty_like",
        "full_like",
    }
)
"""Array constructors evaluated to a shape and dtype."""

DTYPE_POSITIONS: dict[str, int] = {"zeros": 1, "ones": 1, "empty": 1, "full": 2, "array": 1, "asarray": 1}
"""Constructor -> position of its ``dtype`` argument when passed positionally."""

ARRAY_METHODS = frozenset(
    {
        "all",
        "any",
        "argmax",
        "argmin",
        "argsort",
        "astype",
        "clip",
        "conj",
        "conjugate",
        "cumprod",
        "cumsum",
        "diagonal",
        "dot",
        "flatten",
        "max",
        "mean",
        "min",
        "nonzero",
        "prod",
        "ravel",
        "repeat",
        "reshape",
        "round",
        "sort",
        "squeeze",
        "std",
        "sum",
        "swapaxes",
        "take",
        "trace",
        "transpose",
        "var",
        "block_until_ready",
    }
)
"""Methods only arrays have (not dicts, lists, tuples): calling one proves the receiver is an array."""

CONCRETIZING_METHODS = frozenset({"item", "tolist", "__index__", "__int__", "__float__", "__bool__"})
"""Array methods that need a concrete value."""

BOOL_RESULT_FUNCTIONS = frozenset(
    {
        "isnan",
        "isinf",
        "isfinite",
        "isneginf",
        "isposinf",
        "isclose",
        "signbit",
        "logical_and",
        "logical_or",
        "logical_not",
        "logical_xor",
        "equal",
        "not_equal",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
        "isin",
    }
)
"""``jax.numpy`` functions returning boolean arrays (usable as masks)."""

TREE_RESULT_LAX = frozenset(
    {
        "scan",
        "fori_loop",
        "while_loop",
        "cond",
        "switch",
        "map",
        "associative_scan",
        "custom_root",
        "custom_linear_solve",
    }
)
"""``jax.lax`` functions returning pytrees rather than one array."""

TREE_PRESERVING_LAX = frozenset(
    {"psum", "pmean", "pmax", "pmin", "ppermute", "pshuffle", "all_gather", "psum_scatter", "stop_gradient"}
)
"""``jax.lax`` functions applied leaf by leaf to a pytree argument: the result has its structure
(``pmean((loss, metrics), "batch")`` is a tuple of a scalar and a dict)."""
SHAPE_PRESERVING_LAX = frozenset({"psum", "pmean", "pmax", "pmin", "ppermute", "pshuffle", "stop_gradient"})
"""Of those, the ones whose leaves keep their shapes."""

_OPTAX_LOSSES = (
    "convex_kl_divergence",
    "cosine_distance",
    "cosine_similarity",
    "ctc_loss",
    "generalized_kl_divergence",
    "hinge_loss",
    "huber_loss",
    "kl_divergence",
    "kl_divergence_with_log_targets",
    "l2_loss",
    "log_cosh",
    "ntxent",
    "poly_loss_cross_entropy",
    "safe_softmax_cross_entropy",
    "sigmoid_binary_cross_entropy",
    "sigmoid_focal_loss",
    "smooth_labels",
    "softmax_cross_entropy",
    "softmax_cross_entropy_with_integer_labels",
    "squared_error",
    "binary_dice_loss",
    "dice_loss",
    "multiclass_hinge_loss",
    "multiclass_perceptron_loss",
    "perceptron_loss",
    "sparsemax_loss",
    "triplet_margin_loss",
)
_ACTIVATIONS = (
    "celu",
    "elu",
    "gelu",
    "glu",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "hard_tanh",
    "leaky_relu",
    "log_sigmoid",
    "log_softmax",
    "one_hot",
    "relu",
    "relu6",
    "selu",
    "sigmoid",
    "silu",
    "soft_sign",
    "softmax",
    "softplus",
    "standardize",
    "swish",
    "tanh",
)
ARRAY_RESULT_FUNCTIONS = frozenset(
    ["optax.global_norm", "optax.tree_utils.tree_l2_norm", "optax.tree_utils.tree_norm", "optax.tree.norm"]
    + [f"optax.{name}" for name in _OPTAX_LOSSES]
    + [f"optax.losses.{name}" for name in _OPTAX_LOSSES]
    + [f"{module}.{name}" for module in ("flax.linen", "flax.nnx", "equinox.nn") for name in _ACTIVATIONS]
)
"""Functions outside ``jax.numpy``/``jax.lax`` that return one array (optax's losses, the activations flax
and equinox re-export from ``jax.nn``): traced when their inputs are, or when the caller is traced."""

_NNX_LAYERS = (
    "BatchNorm",
    "Conv",
    "ConvTranspose",
    "Dropout",
    "Einsum",
    "Embed",
    "GroupNorm",
    "LayerNorm",
    "Linear",
    "LinearGeneral",
    "MultiHeadAttention",
    "RMSNorm",
    "Sequential",
)
_LINEN_LAYERS = (
    "BatchNorm",
    "Conv",
    "ConvTranspose",
    "Dense",
    "DenseGeneral",
    "Dropout",
    "Embed",
    "GroupNorm",
    "LayerNorm",
    "MultiHeadDotProductAttention",
    "RMSNorm",
    "SelfAttention",
    "Sequential",
)
_EQUINOX_LAYERS = (
    "Conv",
    "Conv1d",
    "Conv2d",
    "Conv3d",
    "Dropout",
    "Embedding",
    "GRUCell",
    "LayerNorm",
    "Linear",
    "MLP",
    "MultiheadAttention",
    "RMSNorm",
    "Sequential",
)
LAYERS = frozenset(
    [f"flax.nnx.{name}" for name in _NNX_LAYERS]
    + [f"flax.linen.{name}" for name in _LINEN_LAYERS]
    + [f"equinox.nn.{name}" for name in _EQUINOX_LAYERS]
)
"""Neural-network layer classes whose instances, called on an array, return one array (traced when the
input is, or when the caller is traced)."""

NNX_VARIABLES = frozenset(
    f"flax.nnx.{name}" for name in ("Variable", "Param", "BatchStat", "Cache", "Intermediate", "VariableState")
)
"""``flax.nnx`` state boxes: ``v[...]`` and ``v.value`` read the array they hold, and writing into them
(``v[...] = x``, ``v.value = x``) is how nnx updates state, not an in-place write into a JAX array."""

TREE_MAPS = frozenset({"jax.tree.map", "jax.tree_util.tree_map", "jax.tree_map"})
"""``tree.map(f, tree, *rest)``: ``f`` applied leaf by leaf, the result shaped like ``tree``."""
TREE_LEAVES = frozenset({"jax.tree.leaves", "jax.tree_util.tree_leaves", "jax.tree_leaves"})

STATIC_RESULT_LAX = frozenset({"axis_size"})
"""``jax.lax`` functions returning a Python value known at trace time (a mapped axis's size)."""


def dtype_name(qualname_or_const: str | None) -> str | None:
    """The dtype a ``dtype=`` argument denotes, in 32-bit mode (a qualified name or a string constant).

    Examples:
        >>> dtype_name("jax.numpy.bfloat16")
        'bfloat16'
        >>> dtype_name("builtins.float")
        'float32'
        >>> dtype_name("float64"), dtype_name("numpy.bool_"), dtype_name("i8")
        ('float32', 'bool', None)
    """
    if qualname_or_const is None:
        return None
    last = qualname_or_const.rsplit(".", 1)[-1]
    if qualname_or_const.startswith("builtins."):
        return dtypes.python_scalar_dtype(last)
    # Only NumPy's long names: NumPy reads the short string "i8" as int64, not int8.
    if last == "bool_" or (dtypes.long_name(last) == last and last in _LONG_NAMES):
        return dtypes.x32(last)
    return None


_LONG_NAMES = frozenset(dtype.name for dtype in dtypes.DTYPES)
