"""Print the requirements to bundle with the xlalens wheel: its runtime dependencies, minus native ones.

``bundled/libs`` is the same in every ``.vsix`` and serves every Python version, so it holds only
pure-Python wheels. The dependencies left out here are compiled per platform and Python version:
a platform's package bundles them under ``bundled/native`` (``native_wheels.py``), the universal
one does not. The server works without them (see ``NATIVE``), and uses the interpreter
environment's when the package has none for it, because the bundled folders are put ahead of the
environment's packages, not instead of them.

Usage: ``python bundled_requirements.py dist/xlalens-0.1.0-py3-none-any.whl``
"""

from __future__ import annotations

import sys
import zipfile
from email.parser import Parser

NATIVE = {
    # libcst parses f-string fields for JX106's fix and recognises syntax newer than the running
    # Python; it has only platform wheels, bundled per platform by native_wheels.py.
    "libcst",
}


def _name(requirement: str) -> str:
    for separator in "<>=!~;[ (":
        requirement = requirement.split(separator, 1)[0]
    return requirement.strip().lower().replace("_", "-")


def bundled_requirements(wheel: str) -> list[str]:
    """The wheel's unconditional ``Requires-Dist`` entries (no extras) that have pure-Python wheels."""
    with zipfile.ZipFile(wheel) as archive:
        [metadata_path] = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(archive.read(metadata_path).decode("utf-8"))
    requirements = metadata.get_all("Requires-Dist") or []
    return [r for r in requirements if "extra ==" not in r and _name(r) not in NATIVE]


if __name__ == "__main__":
    print("\n".join(bundled_requirements(sys.argv[1])))
