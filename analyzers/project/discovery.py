"""Turning the paths given on the command line into the Python files to check.

Directories are walked in sorted order; ``.py`` and ``.pyi`` files are kept, and so are the
dependency files whose declared requirements rules check (``requirements*.txt``,
``pyproject.toml``, ``setup.cfg``; see :mod:`xlalens.analyzers.inputs.dependency_files`). A directory or file is
skipped when it matches the ``exclude`` patterns (the defaults below unless a configuration
replaces them), ``extend-exclude``, or a ``.gitignore`` met on the way (git's rules, including
negation and the deeper file winning). Patterns are gitignore-style and relative to the directory
of the configuration that applies (:attr:`Settings.root`).

A file or directory named on the command line is always checked, as in ruff, unless
``force_exclude`` is set: then the exclude patterns apply to it too (what a pre-commit hook, which
passes every staged file, wants).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.inputs.dependency_files import is_dependency_file
from xlalens.analyzers.project.config import SettingsResolver

if TYPE_CHECKING:
    import pathspec

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


_GLOB_CHARS = frozenset("*?[]\\!#")


def _split_patterns(patterns: Sequence[str]) -> tuple[frozenset[str], frozenset[str], list[str]]:
    """Plain names (``build``, ``.venv/``) apart from real globs, as an exact fast path.

    A gitignore pattern that is a bare name matches any file or directory of that name at any
    depth (a trailing ``/``: directories only), so a set lookup on each entry's name is the same
    test as the pattern, without a regular expression per entry. With a negation (``!keep``) the
    patterns' order matters, so everything then goes to pathspec.
    """
    if any(p.startswith("!") for p in patterns):
        return frozenset(), frozenset(), list(patterns)
    names, dir_names, rest = set(), set(), []
    for pattern in patterns:
        stripped = pattern.strip()
        bare = stripped[:-1] if stripped.endswith("/") else stripped
        if not bare or "/" in bare or _GLOB_CHARS & set(bare):
            rest.append(pattern)
        else:
            (dir_names if stripped.endswith("/") else names).add(bare)
    return frozenset(names), frozenset(dir_names), rest


class _Excluder:
    """The exclude patterns of one :class:`Settings`, matched relative to its root."""

    def __init__(self, settings: Settings, fallback_root: str) -> None:
        patterns = DEFAULT_EXCLUDE if settings.exclude is None else settings.exclude
        root = settings.root or fallback_root
        self._prefix = root.rstrip(os.sep) + os.sep
        self._names, self._dir_names, rest = _split_patterns([*patterns, *settings.extend_exclude])
        self._spec = _gitignore_spec(rest) if rest else None

    def _relative(self, path: str, name: str) -> str:
        if path.startswith(self._prefix):
            return path[len(self._prefix) :].replace(os.sep, "/")
        return name  # outside the project: only name patterns can apply

    def excluded_entry(self, path: str, name: str, is_dir: bool) -> bool:
        """Whether a directory entry met while walking is excluded (its parents were not)."""
        if name in self._names or (is_dir and name in self._dir_names):
            return True
        if self._spec is None:
            return False
        relative = self._relative(path, name)
        return self._spec.match_file(relative + "/" if is_dir else relative)

    def excluded_path(self, path: str, is_dir: bool) -> bool:
        """Whether a path named on the command line, or any directory above it, is excluded."""
        relative = self._relative(path, os.path.basename(path))
        *parents, last = relative.split("/")
        if any(part in self._names or part in self._dir_names for part in parents):
            return True
        return self.excluded_entry(path, last, is_dir)


def _gitignore_spec(lines: Iterable[str]) -> pathspec.GitIgnoreSpec:
    """The patterns of ``lines``; a line pathspec refuses (git accepts a lone ``!``, matching nothing) is skipped."""
    import pathspec  # imported on demand: it costs more than a warm cached run's own work

    lines = list(lines)
    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except (ValueError, TypeError):  # pathspec's GitIgnorePatternError is a ValueError
        return pathspec.GitIgnoreSpec.from_lines([line for line in lines if _valid_pattern(line)])


def _valid_pattern(line: str) -> bool:
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines([line])
    except (ValueError, TypeError):
        return False
    return True


def _is_regular_file(entry: os.DirEntry[str]) -> bool:
    """Whether a directory entry is, or links to, a regular file (not a FIFO, device, or a link loop)."""
    try:
        return entry.is_file()
    except OSError:
        return False


@dataclass(frozen=True, slots=True)
class _GitIgnore:
    prefix: str  # the directory holding the file, with a trailing separator
    spec: pathspec.GitIgnoreSpec

    @classmethod
    def load(cls, directory: str, file: str) -> _GitIgnore | None:
        try:
            with open(file, encoding="utf-8", errors="replace") as handle:
                lines = handle.read().splitlines()
        except OSError:
            return None
        return cls(directory.rstrip(os.sep) + os.sep, _gitignore_spec(lines))


def _git_ignored(ignores: Sequence[_GitIgnore], path: str, is_dir: bool) -> bool:
    # Deeper .gitignore files take precedence over shallower ones, as in git.
    for ignore in reversed(ignores):
        relative = path[len(ignore.prefix) :].replace(os.sep, "/")
        result = ignore.spec.check_file(relative + "/" if is_dir else relative)
        if result.include is not None:
            return result.include
    return False


def _ancestor_ignores(top: str) -> list[_GitIgnore]:
    """Git's ignore files above ``top`` (and its ``.git/info/exclude``) inside its repository.

    ``top``'s own ``.gitignore`` is left to the walk, which reads one in every directory.
    """
    chain: list[str] = []
    current = top
    while True:
        chain.append(current)
        if os.path.exists(os.path.join(current, ".git")):
            break
        parent = os.path.dirname(current)
        if parent == current:
            return []  # not in a git repository: only the files met while walking count
        current = parent
    ignores = []
    for directory in reversed(chain):
        files = [os.path.join(directory, ".git", "info", "exclude")]
        if directory != top:
            files.append(os.path.join(directory, ".gitignore"))
        for file in files:
            if os.path.isfile(file):
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
            entry = (settings, _Excluder(settings, str(self._resolver.cwd)))
            self._excluders[id(settings)] = entry
        return entry[1]

    def excluded(self, path: str) -> bool:
        settings = self._resolver.for_directory(os.path.dirname(path))
        return self.excluder(settings).excluded_path(path, os.path.isdir(path))

    def walk(self, top: str, found: list[str]) -> None:
        start_ignores = _ancestor_ignores(top) if self._respect_gitignore else []
        stack: list[tuple[str, list[_GitIgnore]]] = [(top, start_ignores)]
        while stack:
            directory, ignores = stack.pop()
            if self._respect_gitignore:
                own = os.path.join(directory, ".gitignore")
                if os.path.isfile(own):
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
                # Symlinked directories are not followed (they can loop); symlinked files are.
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    continue
                if not is_dir and not entry.name.endswith(PYTHON_SUFFIXES) and not is_dependency_file(entry.path):
                    continue
                if excluder.excluded_entry(entry.path, entry.name, is_dir):
                    continue
                if ignores and _git_ignored(ignores, entry.path, is_dir):
                    continue
                if is_dir:
                    subdirs.append((entry.path, ignores))
                elif _is_regular_file(entry):
                    found.append(entry.path)
            stack.extend(reversed(subdirs))


def discover(
    paths: Iterable[str | os.PathLike[str]],
    resolver: SettingsResolver,
    *,
    force_exclude: bool = False,
    respect_gitignore: bool = True,
) -> list[Path]:
    """The Python files to check under ``paths``, absolute, sorted and without duplicates.

    A directory named in ``paths`` is walked even when it is excluded (ruff's rule for explicit
    paths), unless ``force_exclude`` is set; what is below it is filtered as usual.

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
    found: list[str] = []
    for given in paths:
        path = resolver.absolute(given)
        if not os.path.exists(path):
            raise DiscoveryError(f"{os.fspath(given)}: no such file or directory")
        if force_exclude and walker.excluded(path):
            continue
        if os.path.isdir(path):
            walker.walk(path, found)
        else:
            found.append(path)
    # Sort by path components, so a directory's files stay together (`a/b.py` before `a-c.py`).
    return [Path(p) for p in sorted(set(found), key=lambda p: p.split(os.sep))]


def is_force_excluded(path: str | os.PathLike[str], resolver: SettingsResolver) -> bool:
    """Whether ``path`` matches the exclude patterns that apply to it (for ``--stdin-filename``)."""
    return _Walker(resolver, respect_gitignore=False).excluded(resolver.absolute(path))
