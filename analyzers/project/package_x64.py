"""Whether another module of a checked file's package may turn on ``jax_enable_x64``.

``JX802`` reports a 64-bit dtype in a module that never mentions x64. In a package, the switch often
lives elsewhere: an entry point runs ``jax.config.update("jax_enable_x64", True)``, or the package
offers a mode that does (torchax's ``enable_accuracy_mode()``), and the modules that ask for
``float64``/``int64`` are written for it. Whether x64 is on there is then decided at run time, so the
rule stays silent. One file's text cannot say this; the project resolver reads the package once per
run and hands the answer to the rules in :class:`~xlalens.analyzers.core.settings.Settings`.

The package of a file is its topmost enclosing directory with an ``__init__.py``; a folder of scripts
(no ``__init__.py``) is its own files, not its subfolders. At most :data:`MAX_FILES` files are read; a
package larger than that is assumed to have no switch, as a file checked alone has none.
"""

from __future__ import annotations

import os
import re
import stat

from xlalens.analyzers.inputs.fileio import MAX_READ_BYTES
from xlalens.analyzers.knowledge.x64 import X64_ATTRIBUTES, X64_STRINGS

MAX_FILES = 5_000
_SWITCH = re.compile("|".join(sorted(re.escape(name) for name in X64_STRINGS | X64_ATTRIBUTES)))
_SKIPPED = frozenset({"__pycache__", "node_modules", "build", "dist"})


def package_root(directory: str) -> str:
    """The topmost directory above ``directory`` (itself included) that is a package, else ``directory``.

    Examples:
        >>> import tempfile, pathlib
        >>> base = pathlib.Path(tempfile.mkdtemp())
        >>> (base / "pkg" / "ops").mkdir(parents=True)
        >>> for name in ("pkg/__init__.py", "pkg/ops/__init__.py"): (base / name).touch()
        >>> package_root(str(base / "pkg" / "ops")) == str(base / "pkg")
        True
    """
    current = os.path.abspath(directory)
    root = current
    while os.path.isfile(os.path.join(current, "__init__.py")):
        root = current
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    return root


class PackageX64:
    """Answers, once per package, whether any of its modules names the x64 switch."""

    def __init__(self) -> None:
        self._by_root: dict[str, bool] = {}

    def enabled_for(self, directory: str) -> bool:
        """Whether the package the files of ``directory`` belong to may turn on x64 somewhere."""
        root = package_root(directory)
        found = self._by_root.get(root)
        if found is None:
            found = self._by_root[root] = _names_switch(root)
        return found


def _names_switch(root: str) -> bool:
    package = os.path.isfile(os.path.join(root, "__init__.py"))
    read = 0
    for directory, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if package and f not in _SKIPPED and not f.startswith("."))
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            read += 1
            if read > MAX_FILES:
                return False
            path = os.path.join(directory, name)
            try:
                # Only regular files, and no more of them than a check would read (`zero.py -> /dev/zero`).
                info = os.stat(path)
                if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_READ_BYTES:
                    continue
                with open(path, encoding="utf-8", errors="replace") as handle:
                    if _SWITCH.search(handle.read(MAX_READ_BYTES)):
                        return True
            except OSError:
                continue
    return False
