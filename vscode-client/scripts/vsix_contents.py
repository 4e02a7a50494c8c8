"""List what a .vsix ships: its size, each part's size, and each bundled Python distribution's.

Files under ``bundled/libs`` are counted under the distribution whose ``RECORD`` lists them, so a
distribution's import packages (``attr`` and ``attrs``) and its ``.dist-info`` add up together.
Files under ``bundled/native/<abi>`` are counted per ABI, under the wheel they were installed from.

It fails (exit 1) when the package lacks its license or icon, records a path of the machine that
built it (pip's ``direct_url.json``), or bundles native wheels that do not match it: the universal
package must have none, a platform's package one wheel for that platform per ABI of
:data:`native_wheels.ABIS`.

Usage: ``python vsix_contents.py xlalens-linux-x64.vsix``
"""

from __future__ import annotations

import csv
import io
import os
import re
import sys
import zipfile
from collections import defaultdict
from email.parser import Parser

from native_wheels import ABIS, TARGETS

LIBS = "extension/bundled/libs/"
NATIVE = "extension/bundled/native/"
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


def target_platform(archive: zipfile.ZipFile) -> str | None:
    """The vsce target the package was built for (``TargetPlatform`` in its manifest); None: universal."""
    manifest = archive.read("extension.vsixmanifest").decode("utf-8")
    found = re.search(r'TargetPlatform="([^"]+)"', manifest)
    return found.group(1) if found else None


def native_wheels(archive: zipfile.ZipFile) -> dict[str, str]:
    """ABI folder -> the file name of the wheel installed there (from its ``.dist-info/WHEEL``)."""
    wheels = {}
    for name in archive.namelist():
        found = re.fullmatch(re.escape(NATIVE) + r"([^/]+)/([^/]+)\.dist-info/WHEEL", name)
        if found:
            abi, distribution = found.groups()
            tags = Parser().parsestr(archive.read(name).decode("utf-8")).get_all("Tag") or ["none-none-none"]
            python, wheel_abi = tags[0].split("-")[:2]
            platforms = ".".join(tag.split("-", 2)[2] for tag in tags)
            wheels[abi] = f"{distribution}-{python}-{wheel_abi}-{platforms}.whl"
    return wheels


def _family(platform_tag: str) -> str:
    """A platform tag without its OS or C library version: ``manylinux_x86_64``, ``macosx_arm64``."""
    return re.sub(r"_\d+_\d+", "", platform_tag)


def native_problems(target: str | None, wheels: dict[str, str]) -> list[str]:
    """What is wrong with the native wheels ``wheels`` of a package for ``target``."""
    if target is None:
        return [f"the universal package bundles native wheels: {sorted(wheels.values())}"] if wheels else []
    if target not in TARGETS:
        return [f"no native wheels are known for target {target}"]
    problems = []
    if sorted(wheels) != sorted(ABIS):
        problems.append(f"bundled/native has {sorted(wheels)}, expected {sorted(ABIS)}")
    for abi, wheel in wheels.items():
        wheel_abi, platforms = wheel.removesuffix(".whl").split("-")[3:5]
        if wheel_abi != abi or _family(platforms.split(".")[0]) != _family(TARGETS[target]):
            problems.append(f"bundled/native/{abi} holds {wheel}, not a {abi} wheel for {target}")
    return problems


def main(path: str) -> None:
    with zipfile.ZipFile(path) as archive:
        entries = archive.infolist()
        owners = _distributions(archive)
        target = target_platform(archive)
        wheels = native_wheels(archive)
    sizes: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for entry in entries:
        part = entry.filename
        if part.startswith(LIBS):
            part = "bundled/libs: " + owners.get(part, "(not installed by pip)")
        elif part.startswith(NATIVE):
            abi = part[len(NATIVE) :].split("/", 1)[0]
            part = f"bundled/native/{abi}: {wheels.get(abi, '(no wheel)')}"
        size = sizes[part]
        size[0] += 1
        size[1] += entry.file_size
        size[2] += entry.compress_size
    names = {entry.filename for entry in entries}
    problems = [f"missing {name}" for name in REQUIRED if name not in names]
    problems += [f"{name} records the builder's path" for name in names if name.endswith("/direct_url.json")]
    problems += native_problems(target, wheels)
    print(f"{path} ({target or 'universal'}): {os.path.getsize(path) / 1e6:.2f} MB, {len(entries)} files")
    print(f"{'files':>6} {'unpacked':>11} {'packed':>10}  part")
    for part, (count, unpacked, packed) in sorted(sizes.items()):
        print(f"{count:>6} {unpacked / 1e3:>8.0f} kB {packed / 1e3:>7.0f} kB  {part}")
    if problems:
        sys.exit("vsix: " + "; ".join(problems))


if __name__ == "__main__":
    main(sys.argv[1])
