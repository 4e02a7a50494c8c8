"""The native packages a platform-specific ``.vsix`` bundles: libcst, one wheel per CPython ABI.

libcst (JX106's fix for a printed f-string, the grammar of newer Pythons) ships no pure-Python
wheel and no ``abi3`` one: each wheel is for one platform and one CPython minor version (``cp312``)
or free-threaded build (``cp314t``). The extension runs with whatever interpreter the user's
environment has, so a package for a platform holds every ABI from the oldest CPython xlalens
supports, each under ``bundled/native/<abi>/``, and ``bundled/tool/lsp_server.py`` puts the one
matching the running interpreter on ``sys.path``. An interpreter with no folder of its own (a
newer CPython, PyPy) runs without the bundled libcst, exactly as the universal package does.

Usage::

    python native_wheels.py targets                  # the vsce targets that get a package of their own
    python native_wheels.py host                     # the target of this machine (exit 1: none)
    python native_wheels.py install TARGET FOLDER    # FOLDER/<abi>/ for each ABI, from PyPI
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

LIBCST = "libcst==1.8.6"
"""The last release with wheels for every target below: 1.9.0 dropped macOS on x86_64."""

ABIS = {
    "cp311": "3.11",
    "cp312": "3.12",
    "cp313": "3.13",
    "cp313t": "3.13",
    "cp314": "3.14",
    "cp314t": "3.14",
}
"""Every CPython ABI libcst has wheels for, from 3.11 (xlalens's oldest) on, with its Python version."""

TARGETS = {
    # VS Code 1.86+ (engines: ^1.91) runs on glibc 2.28 or newer, what manylinux_2_28 requires.
    "linux-x64": "manylinux_2_28_x86_64",
    "linux-arm64": "manylinux_2_28_aarch64",
    "alpine-x64": "musllinux_1_2_x86_64",
    "alpine-arm64": "musllinux_1_2_aarch64",
    # pip also takes older macOS tags for this one: the cp311 wheel is tagged 10_12, cp312 10_13.
    "darwin-x64": "macosx_10_15_x86_64",
    "darwin-arm64": "macosx_11_0_arm64",
    "win32-x64": "win_amd64",
    "win32-arm64": "win_arm64",
}
"""vsce target -> the pip platform tag of its wheels. linux-armhf has no libcst wheel: its users
get the universal package."""


def host_target() -> str | None:
    """The vsce target of the machine this runs on, if it is one of :data:`TARGETS`."""
    system = platform.system()
    machine = platform.machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine)
    if arch is None:
        return None
    if system == "Linux":
        # platform.libc_ver() names glibc and nothing else: an empty answer is musl (Alpine).
        target = f"linux-{arch}" if platform.libc_ver()[0] == "glibc" else f"alpine-{arch}"
    elif system == "Darwin":
        target = f"darwin-{arch}"
    elif system == "Windows":
        target = f"win32-{arch}"
    else:
        return None
    return target if target in TARGETS else None


def install(target: str, folder: str) -> None:
    """Fill ``folder`` (emptied first) with ``<abi>/libcst`` for each of :data:`ABIS`, built for ``target``."""
    shutil.rmtree(folder, ignore_errors=True)
    # One pip per ABI, all at once: each mostly waits on PyPI.
    with ThreadPoolExecutor(len(ABIS)) as pool:
        for done in [pool.submit(_install_abi, target, abi, version, folder) for abi, version in ABIS.items()]:
            done.result()


def _install_abi(target: str, abi: str, version: str, folder: str) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-qq",
            "--no-deps",  # PyYAML is only for libcst's codemod command line, which xlalens does not run
            "--no-compile",
            "--only-binary=:all:",
            "--implementation=cp",
            f"--platform={TARGETS[target]}",
            f"--python-version={version}",
            f"--abi={abi}",
            "--target",
            os.path.join(folder, abi),
            LIBCST,
        ],
        check=True,
    )


def main(argv: list[str]) -> int:
    """Run the command in ``argv`` (see the module's usage); return the exit status."""
    match argv:
        case ["targets"]:
            print("\n".join(TARGETS))
        case ["host"]:
            target = host_target()
            if target is None:
                return 1
            print(target)
        case ["install", target, folder] if target in TARGETS:
            install(target, folder)
        case _:
            print(__doc__, file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
