"""The newer-syntax verdict works where xlalens and libcst are found only on the import path.

A language server bundled with an editor extension runs from an interpreter whose environment has
neither package: its own folders are on ``sys.path``. The verdict's child process must look there
too, or every file in 3.12 syntax reads as a plain syntax error (E999 instead of E998).
"""

from __future__ import annotations

import subprocess
import venv
from pathlib import Path

import libcst

REPOSITORY = Path(__file__).resolve().parents[2]

_PROBE = """
import sys
sys.path[:0] = sys.argv[1:]
from xlalens.analyzers.engine.newer_syntax import needs_newer_python
text = "type Alias = list[int]\\n"
try:
    compile(text, "<text>", "exec")
except SyntaxError as error:
    print(needs_newer_python(text, error))
"""


def test_verdict_child_uses_the_parents_import_path(tmp_path: Path) -> None:
    venv.create(tmp_path / "empty", with_pip=False)
    python = tmp_path / "empty" / "bin" / "python"
    roots = tmp_path / "roots"
    roots.mkdir()
    (roots / "xlalens").symlink_to(REPOSITORY)
    (roots / "libcst").symlink_to(Path(libcst.__file__).parent)
    probe = subprocess.run(
        [str(python), "-I", "-c", _PROBE, str(roots)], capture_output=True, text=True, timeout=120, check=False
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "True"
