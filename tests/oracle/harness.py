"""Run one oracle case and report how it ended.

Usage: ``python harness.py CASEFILE``

The case runs as ``__main__`` via :func:`runpy.run_path`. Its own output passes
through; afterwards one line ``XLALENS-ORACLE {"raised": ..., "mro": [...],
"message": ..., "case_lines": [...]}`` is printed to stdout, where
``case_lines`` are the traceback's line numbers inside the case file.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
import traceback

RESULT_PREFIX = "XLALENS-ORACLE "


def run_case(path: str) -> dict[str, object]:
    """Execute ``path`` and describe the exception it raised, if any."""
    sys.argv = [path]
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as exc:
        if exc.code in (None, 0):
            return {"raised": False, "mro": [], "message": ""}
        return _describe(exc, path)
    except BaseException as exc:
        return _describe(exc, path)
    return {"raised": False, "mro": [], "message": ""}


def _describe(exc: BaseException, path: str) -> dict[str, object]:
    target = os.path.abspath(path)
    lines = [
        lineno
        for frame, lineno in traceback.walk_tb(exc.__traceback__)
        if os.path.abspath(frame.f_code.co_filename) == target
    ]
    return {
        "raised": True,
        "mro": [cls.__name__ for cls in type(exc).__mro__],
        "message": str(exc),
        "case_lines": lines,
    }


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python harness.py CASEFILE", file=sys.stderr)
        return 2
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    result = run_case(argv[1])
    sys.stdout.flush()
    sys.stderr.flush()
    print(RESULT_PREFIX + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
