"""The wheel ships every subpackage, and no bare `server`/`analyzers` lands in site-packages."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

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
