"""Run the xlalens language server from the copy bundled with the VS Code extension.

The extension starts ``<interpreter> bundled/tool/lsp_server.py [server options]`` when
``xlalens.importStrategy`` is ``useBundled``. ``bundled/libs`` (built by ``scripts/bundle.sh``)
holds the xlalens wheel and its pure-Python dependencies; it goes first on ``sys.path`` so that
they win over whatever versions the interpreter's environment has. A platform-specific package
also has ``bundled/native/<abi>/`` with libcst built for each CPython ABI (``cp312``, ``cp314t``);
the folder of the running interpreter goes next. The environment stays reachable after both, so
an interpreter the package has no libcst for (the universal package, a newer CPython, PyPy) uses
the environment's libcst if it has one, and runs without it (one fix fewer) if not.
"""

from __future__ import annotations

import ctypes
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig

BUNDLED = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBS = os.path.join(BUNDLED, "libs")
NATIVE = os.path.join(BUNDLED, "native")


def interpreter_abi() -> str:
    """The wheel ABI tag of the running interpreter: ``cp312``, or ``cp313t`` for a free-threaded build."""
    free_threaded = "t" if sysconfig.get_config_var("Py_GIL_DISABLED") else ""
    return f"cp{sys.version_info.major}{sys.version_info.minor}{free_threaded}"


def _loadable(folder: str) -> bool:
    """Whether ``folder`` holds compiled modules and all of them load into this interpreter.

    A compiled module's name says the ABI, platform and C library it was built for
    (``native.cpython-312-x86_64-linux-gnu.so``, ``native.cp312-win_amd64.pyd``): it must be this
    interpreter's own suffix, not just ``.so``, which any of them ends with. Loading the library
    (without running its module code) then refuses what the name does not tell apart: another
    architecture on macOS, a C library too old. Refused here, libcst is not used at all, instead of
    failing in the middle of a fix.
    """
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    compiled = [
        os.path.join(root, name)
        for root, _, files in os.walk(folder)
        for name in files
        if name.endswith((".so", ".pyd"))
    ]
    if not compiled or not all(path.endswith(suffix) for path in compiled):
        return False
    try:
        for path in compiled:
            ctypes.CDLL(path)
    except OSError:
        return False
    return True


def add_bundled_paths() -> str | None:
    """Put the bundled packages first on ``sys.path``; return a notice when libcst is unavailable."""
    sys.path.insert(0, LIBS)
    abi = interpreter_abi()
    native = os.path.join(NATIVE, abi)
    if sys.implementation.name == "cpython" and os.path.isdir(native) and _loadable(native):
        sys.path.insert(1, native)
        return None
    if importlib.util.find_spec("libcst") is not None:
        return None  # the environment's libcst serves instead
    if os.path.isdir(NATIVE):
        where = f"this package has no libcst for {sys.implementation.name} {abi} on this platform"
    else:
        # The universal package: libcst has only per-platform wheels.
        where = "this package (the one for every platform) bundles none"
    return (
        f"xlalens: libcst is not installed for {sys.executable} and {where}: the jax.debug.print fix "
        "for printed f-strings is not offered; pip install libcst brings it back\n"
    )


def main() -> int:
    """Serve over stdio with the bundled xlalens; return the exit status."""
    if not os.path.isdir(LIBS):
        sys.stderr.write(f"xlalens: {LIBS} is missing; build it with vscode-client/scripts/bundle.sh\n")
        return 2
    notice = add_bundled_paths()
    if notice:
        sys.stderr.write(notice)
    from xlalens.server.app import main as serve

    return serve()


if __name__ == "__main__":
    sys.exit(main())
