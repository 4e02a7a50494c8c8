"""Run the xlalens language server from the copy bundled with the VS Code extension.

The extension starts ``<interpreter> bundled/tool/lsp_server.py [server options]`` when
``xlalens.importStrategy`` is ``useBundled``. ``bundled/libs`` (built by ``scripts/bundle.sh``)
holds the xlalens wheel and its pure-Python dependencies; it goes first on ``sys.path`` so that
they win over whatever versions the interpreter's environment has, while the environment stays
reachable for the native packages the bundle cannot carry (libcst).
"""

from __future__ import annotations

import importlib.util
import os
import sys

LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")


def main() -> int:
    """Serve over stdio with the bundled xlalens; return the exit status."""
    if not os.path.isdir(LIBS):
        sys.stderr.write(f"xlalens: {LIBS} is missing; build it with vscode-client/scripts/bundle.sh\n")
        return 2
    sys.path.insert(0, LIBS)
    if importlib.util.find_spec("libcst") is None:
        # libcst has only per-platform wheels, so it is not bundled: say what is lost without it.
        sys.stderr.write(
            f"xlalens: libcst is not installed for {sys.executable}: the jax.debug.print fix for "
            "printed f-strings is not offered and syntax newer than this Python is reported as an "
            "error; pip install libcst\n"
        )
    from xlalens.server.app import main as serve

    return serve()


if __name__ == "__main__":
    sys.exit(main())
