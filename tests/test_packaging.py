"""The wheel ships every subpackage, and no bare `server`/`analyzers` lands in site-packages.

The VS Code extension's packages: the universal one bundles no native wheel, each platform's one
libcst wheel per CPython ABI for that platform, and the bundled launcher serves the f-string fix
with it, or without it when the package has none for the interpreter.
"""

from __future__ import annotations

import asyncio
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from pytest_lsp import ClientServerConfig

from .server.lsp_client import Session, _make_client

ROOT = Path(__file__).resolve().parent.parent


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_subpackage_is_listed() -> None:
    config = _config()
    listed = set(config["packages"])
    found = set()
    for package, folder in config["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder)
            found.add(".".join([package, *relative.parts]) if relative.parts else package)
    missing = sorted(found - listed)
    assert not missing, f"add to [tool.setuptools].packages: {missing}"


def test_required_top_level_exists() -> None:
    for name in ("pyproject.toml", "server", "analyzers", "explainers", "vscode-client", "tests"):
        assert (ROOT / name).exists(), name


def test_bare_names_are_not_importable(tmp_path: Path) -> None:
    code = (
        "import importlib.util, sys\n"
        "bare = [n for n in ('server', 'analyzers', 'explainers') if importlib.util.find_spec(n)]\n"
        "import xlalens.analyzers, xlalens.server, xlalens.explainers\n"
        "print(','.join(bare))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_wheel_ships_pages_and_static_files(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), "."],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("xlalens-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for page in (ROOT / "explainers" / "pages").glob("*.md"):
        assert f"xlalens/explainers/pages/{page.name}" in names
    for static in (ROOT / "explainers" / "static").iterdir():
        assert f"xlalens/explainers/static/{static.name}" in names
    assert "xlalens/explainers/calculators/registry.py" in names


# -- the VS Code extension's packages ------------------------------------------------------------

CLIENT = ROOT / "vscode-client"
VSIX_DIR_ENV = "XLALENS_VSIX_DIR"
"""A folder with the packages vscode-client/scripts/package.sh built (CI builds them once);
unset, the tests build them, which needs `npm ci` done in vscode-client and reaches PyPI."""

ABIS = ("cp311", "cp312", "cp313", "cp313t", "cp314", "cp314t")
PLATFORMS = {
    "linux-x64": "manylinux_2_28_x86_64",
    "linux-arm64": "manylinux_2_28_aarch64",
    "alpine-x64": "musllinux_1_2_x86_64",
    "alpine-arm64": "musllinux_1_2_aarch64",
    "darwin-x64": {
        "cp311": "macosx_10_12_x86_64",
        "cp312": "macosx_10_13_x86_64",
        "cp313": "macosx_10_13_x86_64",
        "cp313t": "macosx_10_13_x86_64",
        "cp314": "macosx_10_15_x86_64",
        "cp314t": "macosx_10_15_x86_64",
    },
    "darwin-arm64": "macosx_11_0_arm64",
    "win32-x64": "win_amd64",
    "win32-arm64": "win_arm64",
}
"""The platform tags of libcst 1.8.6's wheels on PyPI, per target (written out from PyPI's file list)."""
EXTENSION_SUFFIXES = {
    "linux-x64": "cpython-{}-x86_64-linux-gnu.so",
    "linux-arm64": "cpython-{}-aarch64-linux-gnu.so",
    "alpine-x64": "cpython-{}-x86_64-linux-musl.so",
    "alpine-arm64": "cpython-{}-aarch64-linux-musl.so",
    "darwin-x64": "cpython-{}-darwin.so",
    "darwin-arm64": "cpython-{}-darwin.so",
    "win32-x64": "cp{}-win_amd64.pyd",
    "win32-arm64": "cp{}-win_arm64.pyd",
}
"""How CPython names a compiled module on each target (``{}``: ``311``, ``314t``)."""

NATIVE = "extension/bundled/native/"
FSTRING_PRINT = """\
import jax


@jax.jit
def step(x):
    print(f"x = {x}")
    return x
"""
FIX_TITLE = "Replace with `jax.debug.print`"


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder with ``xlalens.vsix`` and ``xlalens-<target>.vsix`` for every target."""
    given = os.environ.get(VSIX_DIR_ENV)
    if given:
        return Path(given)
    if not (CLIENT / "node_modules" / ".bin" / "vsce").exists():
        missing = "vscode-client has no node_modules: run npm ci there, or set XLALENS_VSIX_DIR"
        if os.environ.get("CI") == "true":
            pytest.fail(missing)
        pytest.skip(missing)
    out = tmp_path_factory.mktemp("vsix")
    subprocess.run(
        ["bash", str(CLIENT / "scripts" / "package.sh"), str(out)],
        env={**os.environ, "XLALENS_PYTHON": sys.executable},
        check=True,
        capture_output=True,
        timeout=1500,
    )
    return out


def _native_wheels(archive: zipfile.ZipFile) -> dict[str, str]:
    """ABI folder -> the wheel installed there, named from its ``.dist-info/WHEEL`` tags."""
    wheels = {}
    for name in archive.namelist():
        parts = name[len(NATIVE) :].split("/")
        if name.startswith(NATIVE) and len(parts) == 3 and parts[2] == "WHEEL":
            tags = [line[5:] for line in archive.read(name).decode().splitlines() if line.startswith("Tag: ")]
            assert len(tags) == 1, tags
            wheels[parts[0]] = f"{parts[1].removesuffix('.dist-info')}-{tags[0]}.whl"
    return wheels


def _assert_no_builder_paths(archive: zipfile.ZipFile) -> None:
    for name in archive.namelist():
        assert not name.endswith("/direct_url.json"), name
        assert "__pycache__" not in name, name
        if ".dist-info/" in name:
            text = archive.read(name).decode("utf-8", "replace")
            assert "file://" not in text and str(Path(tempfile.gettempdir())) not in text, name


@pytest.mark.vsix
@pytest.mark.timeout(1800)
def test_universal_package_bundles_no_native_wheels(packages: Path) -> None:
    with zipfile.ZipFile(packages / "xlalens.vsix") as archive:
        names = archive.namelist()
        assert "extension/bundled/tool/lsp_server.py" in names
        assert any(name.startswith("extension/bundled/libs/xlalens/") for name in names)
        assert [name for name in names if name.startswith(NATIVE) or "libcst" in name] == []
        assert 'TargetPlatform="' not in archive.read("extension.vsixmanifest").decode()
        _assert_no_builder_paths(archive)


@pytest.mark.vsix
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("target", sorted(PLATFORMS))
def test_platform_package_bundles_its_libcst_wheel_for_each_abi(packages: Path, target: str) -> None:
    platforms = PLATFORMS[target]
    expected = {
        abi: f"libcst-1.8.6-{abi.rstrip('t')}-{abi}-{platforms if isinstance(platforms, str) else platforms[abi]}.whl"
        for abi in ABIS
    }
    with zipfile.ZipFile(packages / f"xlalens-{target}.vsix") as archive:
        assert f'TargetPlatform="{target}"' in archive.read("extension.vsixmanifest").decode()
        assert _native_wheels(archive) == expected
        compiled = sorted(name for name in archive.namelist() if name.endswith((".so", ".pyd")))
        suffix = EXTENSION_SUFFIXES[target]
        assert compiled == [f"{NATIVE}{abi}/libcst/native.{suffix.format(abi[2:])}" for abi in sorted(ABIS)]
        # The pure-Python part is the universal package's, file for file.
        libs = sorted(name for name in archive.namelist() if name.startswith("extension/bundled/libs/"))
        _assert_no_builder_paths(archive)
    with zipfile.ZipFile(packages / "xlalens.vsix") as universal:
        assert libs == sorted(name for name in universal.namelist() if name.startswith("extension/bundled/libs/"))


def _extract(package: Path, folder: Path) -> Path:
    """Unpack a .vsix as VS Code installs it; return the extension's folder."""
    with zipfile.ZipFile(package) as archive:
        archive.extractall(folder)
    return folder / "extension"


def _empty_environment(folder: Path, python: str) -> str:
    """A virtual environment of ``python`` with nothing installed: the bundle must bring everything."""
    subprocess.run([python, "-m", "venv", "--without-pip", str(folder)], check=True, capture_output=True)
    return str(folder / ("Scripts" if sys.platform == "win32" else "bin") / "python")


PROBE = """\
import runpy, sys
notice = runpy.run_path(sys.argv[1])["add_bundled_paths"]()
print((notice or "").strip())
try:
    import libcst
except ImportError:
    print("no libcst")
else:
    print(libcst.__file__)
    print(type(libcst.parse_expression('f"x = {x!r:>10}"')).__name__)
"""
"""Sets sys.path up as the launcher does, then reports which libcst that finds and whether it parses."""


ABI = (
    "import sys, sysconfig\n"
    "print(f'cp3{sys.version_info[1]}' + ('t' if sysconfig.get_config_var('Py_GIL_DISABLED') else ''))\n"
)
"""Prints the wheel ABI tag of the Python that runs it, as a wheel's file name spells it."""


def _probe(python: str, extension: Path) -> list[str]:
    launcher = extension / "bundled" / "tool" / "lsp_server.py"
    result = subprocess.run([python, "-c", PROBE, str(launcher)], capture_output=True, text=True, check=True)
    return result.stdout.splitlines()


class _BundledSession(Session):
    """A session whose server is the bundled launcher run by ``python``, as ``useBundled`` starts it."""

    def __init__(self, python: str, extension: Path, workspace: Path, log_file: Path) -> None:
        super().__init__("visual-studio-code", workspace, log_file)
        self.command = [python, str(extension / "bundled" / "tool" / "lsp_server.py"), "--log-file", str(log_file)]

    async def start(self) -> None:
        config = ClientServerConfig(server_command=self.command, client_factory=_make_client)
        self.client = await config.start()  # type: ignore[assignment]


async def _jx106_actions(python: str, extension: Path, folder: Path) -> tuple[list[str], str]:
    """The titles of the actions the bundled server offers on JX106, and the text its fix makes."""
    workspace = folder / "workspace"
    workspace.mkdir()
    (workspace / "pyproject.toml").write_text("[project]\nname = 'demo'\n", encoding="utf-8")
    session = _BundledSession(python, extension, workspace, folder / "server.log")
    await session.start()
    try:
        await session.initialize({"debounceMs": 10})
        uri = session.open("step.py", FSTRING_PRINT)
        [jx106] = [d for d in await session.diagnostics(uri) if d.code == "JX106"]
        actions = await session.code_actions(uri, jx106.range, [jx106])
        fixes = [action for action in actions if action.title == FIX_TITLE]
        fixed = session.apply(uri, (await session.resolve(fixes[0])).edit) if fixes else FSTRING_PRINT
        return [action.title for action in actions], fixed
    finally:
        await session.stop()


def _host_is(target: str) -> bool:
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    return f"linux-{machine}" == target and platform.libc_ver()[0] == "glibc"


def _interpreters() -> list[str]:
    """This Python, and every other CPython 3.11+ on PATH (each must find its own ABI's folder)."""
    found = {sys.executable}
    for minor in range(11, 15):
        python = shutil.which(f"python3.{minor}")
        if python and subprocess.run([python, "-c", ""], capture_output=True, check=False).returncode == 0:
            found.add(python)
    return sorted(found)


@pytest.mark.vsix
@pytest.mark.timeout(1800)
@pytest.mark.skipif(not _host_is("linux-x64"), reason="runs the linux-x64 package's libcst, on a linux-x64 machine")
@pytest.mark.parametrize("python", _interpreters())
def test_linux_x64_package_offers_the_fstring_fix_with_its_own_libcst(
    packages: Path, tmp_path: Path, python: str
) -> None:
    extension = _extract(packages / "xlalens-linux-x64.vsix", tmp_path / "installed")
    environment = _empty_environment(tmp_path / "venv", python)
    abi = subprocess.run([environment, "-c", ABI], capture_output=True, text=True, check=True).stdout.strip()

    notice, origin, parsed = _probe(environment, extension)

    assert notice == ""
    assert Path(origin).is_relative_to(extension / "bundled" / "native" / abi / "libcst")
    assert parsed == "FormattedString"
    titles, fixed = asyncio.run(_jx106_actions(environment, extension, tmp_path))
    assert FIX_TITLE in titles
    assert '    jax.debug.print("x = {}", x)\n' in fixed


@pytest.mark.vsix
@pytest.mark.timeout(1800)
@pytest.mark.skipif(not _host_is("linux-x64"), reason="runs the linux-x64 package, on a linux-x64 machine")
@pytest.mark.parametrize(
    "damage",
    ["no folder for the ABI", "a folder for another platform", "a module that does not load", "universal package"],
)
def test_without_a_matching_libcst_the_bundled_server_still_checks(packages: Path, tmp_path: Path, damage: str) -> None:
    package = packages / ("xlalens.vsix" if damage == "universal package" else "xlalens-linux-x64.vsix")
    extension = _extract(package, tmp_path / "installed")
    environment = _empty_environment(tmp_path / "venv", sys.executable)
    abi = f"cp3{sys.version_info[1]}"
    native = extension / "bundled" / "native" / abi
    if damage in ("no folder for the ABI", "a folder for another platform"):
        shutil.rmtree(native)
    if damage == "a folder for another platform":
        with zipfile.ZipFile(packages / "xlalens-darwin-arm64.vsix") as archive:
            archive.extractall(tmp_path / "darwin", [n for n in archive.namelist() if n.startswith(f"{NATIVE}{abi}/")])
        shutil.move(tmp_path / "darwin" / NATIVE / abi, native)
    if damage == "a module that does not load":
        # Named for this interpreter, but not a library this machine loads (as another architecture's).
        [compiled] = native.glob("libcst/native.*.so")
        compiled.write_bytes(b"\x7fELF not a library")

    notice, origin = _probe(environment, extension)

    assert notice.startswith(f"xlalens: libcst is not installed for {environment}")
    assert origin == "no libcst"
    titles, fixed = asyncio.run(_jx106_actions(environment, extension, tmp_path))
    assert FIX_TITLE not in titles and "Disable JX106 for this line" in titles
    assert fixed == FSTRING_PRINT
