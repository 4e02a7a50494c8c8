"""Turning the paths given on the command line into the Python files to check.

Directories are walked in sorted order; ``.py`` and ``.pyi`` files are kept. A directory or file is
skipped when it matches the ``exclude`` patterns (the defaults below unless a configuration
replaces them), ``extend-exclude``, or a ``.gitignore`` met on the way (git's rules, including
negation and the deeper file winning). Patterns are gitignore-style and relative to the directory
of the configuration that applies (:attr:`Settings.root`).

A file named on the command line is always checked, as in ruff, unless ``force_exclude`` is set:
then the exclude patterns apply to it too (what a pre-commit hook, which passes every staged file,
wants).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pathspec
from xlalens.analyzers.config import SettingsResolver
from xlalens.analyzers.settings import Settings

PYTHON_SUFFIXES: tuple[str, ...] = (".py", ".pyi")

DEFAULT_EXCLUDE: tuple[str, ...] = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".hg",
    ".ipynb_checkpoints",
    ".mypy_cache",
    ".nox",
    ".pytest_cache",
    ".pytype",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    ".xlalens_cache",
    "__pycache__",
    "__pypackages__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
)
"""Directories never walked into unless ``exclude`` is set to something else."""


class DiscoveryError(Exception):
    """A path on the command line that does not exist."""


class _Excluder:
    """The exclude patterns of one :class:`Settings`, matched relative to its root."""

    def __init__(self, settings: Settings, fallback_root: Path) -> None:
        patterns = DEFAULT_EXCLUDE if settings.exclude is None else settings.exclude
        self._root = Path(settings.root) if settings.root else fallback_root
        self._spec = pathspec.GitIgnoreSpec.from_lines([*patterns, *settings.extend_exclude])

    def excluded(self, path: Path, is_dir: bool) -> bool:
        try:
            relative = path.relative_to(self._root).as_posix()
        except ValueError:
            relative = path.name  # outside the project: only name patterns can apply
        if relative in ("", "."):
            return False
        return self._spec.match_file(relative + "/" if is_dir else relative)


@dataclass(frozen=True, slots=True)
class _GitIgnore:
    base: Path
    spec: pathspec.GitIgnoreSpec

    @classmethod
    def load(cls, directory: Path, file: Path) -> _GitIgnore | None:
        try:
            lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return None
        return cls(directory, pathspec.GitIgnoreSpec.from_lines(lines))


def _git_ignored(ignores: Iterable[_GitIgnore], path: Path, is_dir: bool) -> bool:
    # Deeper .gitignore files take precedence over shallower ones, as in git.
    for ignore in reversed(list(ignores)):
        relative = path.relative_to(ignore.base).as_posix()
        result = ignore.spec.check_file(relative + "/" if is_dir else relative)
        if result.include is not None:
            return result.include
    return False


def _ancestor_ignores(top: Path) -> list[_GitIgnore]:
    """Git's ignore files above ``top`` (and its ``.git/info/exclude``) inside its repository.

    ``top``'s own ``.gitignore`` is left to the walk, which reads one in every directory.
    """
    chain: list[Path] = []
    for directory in (top, *top.parents):
        chain.append(directory)
        if (directory / ".git").exists():
            break
    else:
        return []  # not in a git repository: only the files met while walking count
    ignores = []
    for directory in reversed(chain):
        files = [directory / ".git" / "info" / "exclude"]
        if directory != top:
            files.append(directory / ".gitignore")
        for file in files:
            if file.is_file():
                loaded = _GitIgnore.load(directory, file)
                if loaded is not None:
                    ignores.append(loaded)
    return ignores


class _Walker:
    def __init__(self, resolver: SettingsResolver, respect_gitignore: bool) -> None:
        self._resolver = resolver
        self._respect_gitignore = respect_gitignore
        self._excluders: dict[int, tuple[Settings, _Excluder]] = {}

    def excluder(self, settings: Settings) -> _Excluder:
        # Keyed by identity: the resolver hands out one Settings object per configuration.
        entry = self._excluders.get(id(settings))
        if entry is None:
            entry = (settings, _Excluder(settings, self._resolver.cwd))
            self._excluders[id(settings)] = entry
        return entry[1]

    def excluded(self, path: Path) -> bool:
        is_dir = path.is_dir()
        settings = self._resolver.for_path(path.parent)
        return self.excluder(settings).excluded(path, is_dir)

    def walk(self, top: Path, found: set[Path]) -> None:
        start_ignores = _ancestor_ignores(top) if self._respect_gitignore else []
        stack: list[tuple[Path, list[_GitIgnore]]] = [(top, start_ignores)]
        while stack:
            directory, ignores = stack.pop()
            if self._respect_gitignore:
                own = directory / ".gitignore"
                if own.is_file():
                    loaded = _GitIgnore.load(directory, own)
                    if loaded is not None:
                        ignores = [*ignores, loaded]
            excluder = self.excluder(self._resolver.for_directory(directory))
            try:
                with os.scandir(directory) as scan:
                    entries = sorted(scan, key=lambda entry: entry.name)
            except OSError:
                continue  # unreadable directory: nothing in it can be checked
            subdirs = []
            for entry in entries:
                path = Path(entry.path)
                # Symlinked directories are not followed (they can loop); symlinked files are.
                is_dir = entry.is_dir(follow_symlinks=False)
                if not is_dir and not entry.name.endswith(PYTHON_SUFFIXES):
                    continue
                if excluder.excluded(path, is_dir):
                    continue
                if ignores and _git_ignored(ignores, path, is_dir):
                    continue
                if is_dir:
                    subdirs.append((path, ignores))
                elif entry.is_file():
                    found.add(path)
            stack.extend(reversed(subdirs))


def discover(
    paths: Iterable[str | os.PathLike[str]],
    resolver: SettingsResolver,
    *,
    force_exclude: bool = False,
    respect_gitignore: bool = True,
) -> list[Path]:
    """The Python files to check under ``paths``, absolute, sorted and without duplicates.

    Args:
        paths: Files and directories, relative to the resolver's ``cwd`` or absolute.
        resolver: Gives the settings (and so the exclude patterns) for each directory.
        force_exclude: Apply the exclude patterns to files and directories named in ``paths`` too.
        respect_gitignore: Skip what ``.gitignore`` files ignore.

    Raises:
        DiscoveryError: if a path does not exist.
        ConfigError: if a configuration met on the way is invalid.
    """
    walker = _Walker(resolver, respect_gitignore)
    found: set[Path] = set()
    for given in paths:
        path = Path(os.path.abspath(resolver.cwd / given))
        if not path.exists():
            raise DiscoveryError(f"{os.fspath(given)}: no such file or directory")
        if force_exclude and walker.excluded(path):
            continue
        if path.is_dir():
            walker.walk(path, found)
        else:
            found.add(path)
    return sorted(found)


def is_force_excluded(path: str | os.PathLike[str], resolver: SettingsResolver) -> bool:
    """Whether ``path`` matches the exclude patterns that apply to it (for ``--stdin-filename``)."""
    absolute = Path(os.path.abspath(resolver.cwd / path))
    return _Walker(resolver, respect_gitignore=False).excluded(absolute)
