"""Fetch and cache the real JAX projects the benchmark and the findings review run on.

Each project's source distribution is downloaded with ``pip download --no-deps
--no-binary :all:`` (falling back to the wheel, ``--only-binary :all:``, when there is
no sdist), for Python 3.11, into ``benchmarks/.corpus/<name>/``, extracted there, and
described by a ``corpus.json`` marker. A second call finds the marker and downloads
nothing. The directory is git-ignored and never committed.

Versions are pinned (see :data:`PINS`) so that figures from different days measure the
same code; ask for another version with ``"name==version"``.

Usage::

    python benchmarks/corpus.py            # fetch if needed, print version, files, lines
    python benchmarks/corpus.py optax chex # only these
"""

from __future__ import annotations

import argparse
import email.parser
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

DEFAULT_NAMES: tuple[str, ...] = ("flax", "optax", "orbax-checkpoint", "chex")
"""The projects benchmarked by default: the most used JAX libraries outside JAX itself."""

DEFAULT_ROOT: Path = Path(__file__).resolve().parent / ".corpus"
"""``benchmarks/.corpus`` of this checkout, wherever the command is run from."""

PINS: dict[str, str] = {
    "flax": "0.12.8",
    "optax": "0.2.8",
    "orbax-checkpoint": "0.12.8",
    "chex": "0.1.92",
}
"""The versions benchmarked unless a name says ``==version``; all support Python 3.11."""

ALIASES: dict[str, str] = {"orbax": "orbax-checkpoint"}
"""Short names accepted on command lines."""

IMPORT_NAMES: dict[str, str] = {"orbax-checkpoint": "orbax"}
"""Projects whose top-level package is not named after the project."""

TARGET_PYTHON = "3.11"
MARKER = "corpus.json"
_SKIPPED_DIRS = frozenset({"__pycache__", "build", "dist", "node_modules"})


@dataclass(frozen=True)
class CorpusInfo:
    """One fetched project.

    Attributes:
        name: The project's distribution name, e.g. ``"orbax-checkpoint"``.
        version: The version that was downloaded.
        kind: ``"sdist"`` or ``"wheel"``.
        archive: The downloaded file.
        source_dir: The directory holding the project's package ``.py`` files.
    """

    name: str
    version: str
    kind: str
    archive: Path
    source_dir: Path

    @property
    def extracted_dir(self) -> Path:
        """The whole extracted archive: the package with the tests, examples and docs it ships."""
        return self.archive.parent.parent / "src"


def canonical_name(name: str) -> str:
    """The distribution name for ``name``, resolving short aliases such as ``orbax``."""
    base = name.strip().lower().replace("_", "-")
    return ALIASES.get(base, base)


def short_name(name: str) -> str:
    """The label used in tables: ``orbax-checkpoint`` becomes ``orbax``."""
    canonical = canonical_name(name)
    return next((alias for alias, full in ALIASES.items() if full == canonical), canonical)


def parse_spec(spec: str) -> tuple[str, str | None]:
    """Split ``"name"`` or ``"name==version"`` into the canonical name and the pinned version.

    Examples:
        >>> parse_spec("orbax==0.11.0")
        ('orbax-checkpoint', '0.11.0')
        >>> parse_spec("optax")
        ('optax', '0.2.8')
    """
    name, _, version = spec.partition("==")
    canonical = canonical_name(name)
    return canonical, (version.strip() or PINS.get(canonical))


def python_files(directory: Path) -> list[Path]:
    """Every ``.py`` file below ``directory``, sorted, skipping caches and hidden folders."""
    found: list[Path] = []
    for path in directory.rglob("*.py"):
        parts = path.relative_to(directory).parts[:-1]
        if any(part.startswith(".") or part in _SKIPPED_DIRS for part in parts):
            continue
        if path.is_file():
            found.append(path)
    return sorted(found)


def read_source(path: Path) -> str:
    """The text of a source file, as every benchmark loop reads it."""
    return path.read_text(encoding="utf-8", errors="replace")


def count_lines(paths: Iterable[Path]) -> int:
    """The total number of source lines in ``paths``."""
    return sum(len(read_source(path).splitlines()) for path in paths)


def ensure_corpus(names: Sequence[str] = DEFAULT_NAMES, root: Path = DEFAULT_ROOT) -> dict[str, Path]:
    """Fetch (once) each project in ``names`` and return ``name -> directory of .py files``.

    Args:
        names: Distribution names, short aliases (``orbax``) or ``name==version`` specs.
        root: Where the projects are kept, one folder each.

    Raises:
        RuntimeError: if a project can be downloaded neither as an sdist nor as a wheel.
    """
    return {name: info.source_dir for name, info in ensure_corpus_info(names, root).items()}


def ensure_corpus_info(
    names: Sequence[str] = DEFAULT_NAMES, root: Path = DEFAULT_ROOT, python: str = TARGET_PYTHON
) -> dict[str, CorpusInfo]:
    """Like :func:`ensure_corpus`, with the version and archive of each project; ``python`` is the
    Python version the release must support (``"3.12"`` for a project that requires it)."""
    result: dict[str, CorpusInfo] = {}
    for spec in names:
        name, version = parse_spec(spec)
        result[name] = _ensure_one(name, version, Path(root), python)
    return result


def _ensure_one(name: str, version: str | None, root: Path, python: str = TARGET_PYTHON) -> CorpusInfo:
    """Return the cached project, or download and extract it."""
    folder = root / name
    cached = _read_marker(folder)
    if cached is not None and (version is None or cached.version == version):
        return cached
    if folder.exists():
        shutil.rmtree(folder)
    downloads = folder / "download"
    downloads.mkdir(parents=True)
    requirement = f"{name}=={version}" if version else name
    kind, archive = _download(requirement, downloads, python)
    extracted = folder / "src"
    _extract(archive, extracted)
    info = CorpusInfo(
        name=name,
        version=_read_version(extracted) or _version_from_filename(archive.name),
        kind=kind,
        archive=archive,
        source_dir=_package_dir(extracted, IMPORT_NAMES.get(name, name.replace("-", "_"))),
    )
    _write_marker(folder, info)
    return info


def _download(requirement: str, dest: Path, python: str = TARGET_PYTHON) -> tuple[str, Path]:
    """Download the sdist of ``requirement`` into ``dest``, else its wheel; return kind and file."""
    attempts = (("sdist", "--no-binary"), ("wheel", "--only-binary"))
    errors: list[str] = []
    for kind, flag in attempts:
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            flag,
            ":all:",
            "--python-version",
            python,
            "--disable-pip-version-check",
            "--dest",
            str(dest),
            requirement,
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        archives = [p for p in dest.iterdir() if p.is_file()]
        if done.returncode == 0 and archives:
            return kind, archives[0]
        errors.append(f"{kind}: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
        for leftover in archives:
            leftover.unlink()
    raise RuntimeError(f"could not download {requirement}: {'; '.join(map(str, errors))}")


def _extract(archive: Path, dest: Path) -> None:
    """Unpack a ``.tar.gz``/``.tgz``/``.tar.bz2``, ``.zip`` or ``.whl`` into ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    if archive.suffix in {".zip", ".whl"}:
        with zipfile.ZipFile(archive) as bundle:
            bundle.extractall(dest)
    elif tarfile.is_tarfile(archive):
        with tarfile.open(archive) as bundle:
            if hasattr(tarfile, "data_filter"):
                bundle.extractall(dest, filter="data")
            else:  # pragma: no cover - Python before 3.11.4
                bundle.extractall(dest)
    else:
        raise RuntimeError(f"do not know how to extract {archive.name}")


def _package_dir(extracted: Path, import_name: str) -> Path:
    """The project's top-level package inside an extracted archive, else the archive's root."""
    top = [entry for entry in extracted.iterdir() if entry.is_dir()]
    base = top[0] if len(top) == 1 and not (extracted / import_name).is_dir() else extracted
    for candidate in (base / import_name, base / "src" / import_name):
        if candidate.is_dir():
            return candidate
    return base


def _read_version(extracted: Path) -> str | None:
    """The ``Version`` field of the sdist's ``PKG-INFO`` or the wheel's ``METADATA``."""
    metadata = sorted(extracted.glob("*/PKG-INFO")) + sorted(extracted.glob("*.dist-info/METADATA"))
    for path in metadata:
        version = email.parser.Parser().parsestr(path.read_text(encoding="utf-8")).get("Version")
        if version:
            return str(version)
    return None


def _version_from_filename(filename: str) -> str:
    """Guess the version from ``name-1.2.3.tar.gz`` or ``name-1.2.3-py3-none-any.whl``."""
    match = re.search(r"-(\d[^-]*?)(?:\.tar\.gz|\.tgz|\.tar\.bz2|\.zip|-py|-cp|$)", filename)
    return match.group(1) if match else "unknown"


def _read_marker(folder: Path) -> CorpusInfo | None:
    """The cached description of a fetched project, if it is complete."""
    marker = folder / MARKER
    if not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
        info = CorpusInfo(
            name=data["name"],
            version=data["version"],
            kind=data["kind"],
            archive=folder / data["archive"],
            source_dir=folder / data["source_dir"],
        )
    except (KeyError, TypeError, ValueError):
        return None
    return info if info.source_dir.is_dir() else None


def _write_marker(folder: Path, info: CorpusInfo) -> None:
    """Record a finished fetch; written last, so a half-done fetch is redone next time."""
    data = {
        "name": info.name,
        "version": info.version,
        "kind": info.kind,
        "archive": info.archive.relative_to(folder).as_posix(),
        "source_dir": info.source_dir.relative_to(folder).as_posix(),
    }
    (folder / MARKER).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Fetch the corpus and print each project's version, file count and line count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(DEFAULT_NAMES), help="projects")
    parser.add_argument("--root", type=Path, default=DEFAULT_ROOT, help="cache folder")
    args = parser.parse_args(argv)
    infos = ensure_corpus_info(args.names, args.root)
    print(f"{'project':<18} {'version':<10} {'kind':<6} {'files':>6} {'lines':>9}  directory")
    for info in infos.values():
        files = python_files(info.source_dir)
        lines = count_lines(files)
        print(f"{info.name:<18} {info.version:<10} {info.kind:<6} {len(files):>6} {lines:>9,}  {info.source_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
