"""Library objects that hold the user's functions and call them from their own methods.

``optax.GradientTransformation(init_fn, update_fn)`` keeps two functions of the module; calling
``tx.update(grads, state, params)`` runs ``update_fn`` on those arguments, inside whatever trace the
call sits in. The interpreter uses this table to follow such calls, so a ``print`` in a custom
optax transform is known to run under the ``jax.jit`` of the training step that calls ``tx.update``.

Examples:
    >>> holder("optax.GradientTransformation").methods
    ('init', 'update')
    >>> holder("optax.chain").combines
    True
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CallbackHolder:
    """How one library constructor keeps functions.

    Attributes:
        qualname: The constructor's qualified name.
        methods: The method names, in the order the constructor takes the functions (positionally or
            by these keywords).
        combines: Whether it takes other holders instead (``optax.chain(tx1, tx2)``), whose methods run
            one after the other on the same call.
    """

    qualname: str
    methods: tuple[str, ...] = ()
    combines: bool = False


_HOLDERS: dict[str, CallbackHolder] = {}


def register_holder(entry: CallbackHolder) -> None:
    """Add a constructor to the table; its qualified name must be new."""
    if entry.qualname in _HOLDERS:
        raise ValueError(f"{entry.qualname} is already registered; known: {', '.join(sorted(_HOLDERS))}")
    if bool(entry.methods) == entry.combines:
        raise ValueError(f"{entry.qualname}: give either the methods it keeps or combines=True")
    _HOLDERS[entry.qualname] = entry


def method_names() -> frozenset[str]:
    """Every method name through which a holder runs the functions it keeps."""
    return frozenset(name for entry in _HOLDERS.values() for name in entry.methods)


def holder(qualname: str | None) -> CallbackHolder | None:
    """The entry for a constructor, or ``None`` for any other call."""
    return _HOLDERS.get(qualname) if qualname is not None else None


for _name in ("optax.GradientTransformation", "optax.GradientTransformationExtraArgs"):
    register_holder(CallbackHolder(_name, ("init", "update")))
for _name in ("optax.chain", "optax.named_chain"):
    register_holder(CallbackHolder(_name, combines=True))
