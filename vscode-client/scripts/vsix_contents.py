"""List what a .vsix ships: its size, each part's size, and each bundled Python distribution's.

Files under ``bundled/libs`` are counted under the distribution whose ``RECORD`` lists them, so a
distribution's import packages (``attr`` and ``attrs``) and its ``.dist-info`` add up together.

It fails (exit 1) when the package lacks its license or icon, or records a path of the machine
that built it (pip's ``direct_url.json``).

Usage: ``python vsix_contents.py xlalens.vsix``
"""

from __future__ import annotations

import csv
import io
import os
import sys
import zipfile
from collections import defaultdict

LIBS = "extension/bundled/libs/"
REQUIRED = ("extension/LICENSE.txt", "extension/images/icon.png", "extension/package.json")


def _distributions(archive: zipfile.ZipFile) -> dict[str, str]:
    """Archive path -> ``name-version`` of the bundled distribution that installed it."""
    owners = {}
    for name in archive.namelist():
        if name.startswith(LIBS) and name.endswith(".dist-info/RECORD"):
            distribution = name[len(LIBS) :].split("/", 1)[0].removesuffix(".dist-info")
            record = archive.read(name).decode("utf-8")
            for row in csv.reader(io.StringIO(record)):
                if row:
                    owners[LIBS + row[0]] = distribution
    return owners


def main(path: str) -> None:
    with zipfile.ZipFile(path) as archive:
        entries = archive.infolist()
        owners = _distributions(archive)
    sizes: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for entry in entries:
        part = entry.filename
        if part.startswith(LIBS):
            part = "bundled/libs: " + owners.get(part, "(not installed by pip)")
        size = sizes[part]
        size[0] += 1
        size[1] += entry.file_size
        size[2] += entry.compress_size
    names = {entry.filename for entry in entries}
    problems = [f"missing {name}" for name in REQUIRED if name not in names]
    problems += [f"{name} records the builder's path" for name in names if name.endswith("/direct_url.json")]
    print(f"{path}: {os.path.getsize(path) / 1e6:.2f} MB, {len(entries)} files")
    print(f"{'files':>6} {'unpacked':>11} {'packed':>10}  part")
    for part, (count, unpacked, packed) in sorted(sizes.items()):
        print(f"{count:>6} {unpacked / 1e3:>8.0f} kB {packed / 1e3:>7.0f} kB  {part}")
    if problems:
        sys.exit("vsix: " + "; ".join(problems))


if __name__ == "__main__":
    main(sys.argv[1])
