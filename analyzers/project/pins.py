"""The JAX and torch_xla releases a checked project pins, read from its dependency files.

The upgrade rules (``JX7xx``, ``TX7xx``) judge an old spelling by the release the code will run on:
removed by then is an error, only deprecated a warning. ``jax-version`` and ``torch-xla-version`` in
the configuration say it; without them, the project's own pins do, as ruff reads
``requires-python`` when ``target-version`` is unset.

From the checked file's directory upwards (stopping after a repository root, the directory with
``.git``), the first directory whose ``pyproject.toml``, ``setup.cfg`` or requirements files declare
the library decides. The release is the newest one every declaration allows (``jax==0.4.30`` gives
0.4.30, ``jax>=0.4,<0.5`` the last 0.4 release); a declaration without an upper bound
(``jax>=0.4.30``) lets any release in, so it pins nothing and the rules use the newest release they
know.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping

from xlalens.analyzers.core.versions import Version, format_version
from xlalens.analyzers.inputs.dependency_files import declared_requirements, is_dependency_file

PINNED_SETTINGS: Mapping[str, str] = {"jax_version": "jax", "torch_xla_version": "torch-xla"}
"""Settings field -> the normalized distribution name whose pin fills it."""


def _dependency_files(directory: str) -> Iterator[str]:
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return
    for name in names:
        path = os.path.join(directory, name)
        if is_dependency_file(path) and os.path.isfile(path):
            yield path
    nested = os.path.join(directory, "requirements")
    if os.path.isdir(nested):
        try:
            inner = sorted(os.listdir(nested))
        except OSError:
            return
        for name in inner:
            path = os.path.join(nested, name)
            if name.endswith(".txt") and os.path.isfile(path):
                yield path


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


def pins_in_directory(directory: str) -> dict[str, Version | None]:
    """Distribution name -> the newest release the directory's dependency files allow (``None``: unbounded).

    Only the libraries in :data:`PINNED_SETTINGS` are looked at; a library the files do not name
    is absent.
    """
    wanted = set(PINNED_SETTINGS.values())
    found: dict[str, list[Version | None]] = {}
    for path in _dependency_files(directory):
        text = _read(path)
        if text is None:
            continue
        requirements, _ = declared_requirements(text, path)
        for requirement in requirements:
            if requirement.name in wanted:
                found.setdefault(requirement.name, []).append(requirement.highest)
    pins: dict[str, Version | None] = {}
    for name, bounds in found.items():
        known = [bound for bound in bounds if bound is not None]
        pins[name] = max(known) if known and len(known) == len(bounds) else None
    return pins


class ProjectPins:
    """Finds, once per directory, the release strings the pins of the enclosing project give."""

    def __init__(self) -> None:
        self._by_directory: dict[str, dict[str, Version | None]] = {}
        self._resolved: dict[str, dict[str, str | None]] = {}

    def _pins(self, directory: str) -> dict[str, Version | None]:
        cached = self._by_directory.get(directory)
        if cached is None:
            cached = self._by_directory[directory] = pins_in_directory(directory)
        return cached

    def settings_for(self, directory: str) -> dict[str, str | None]:
        """Settings field -> pinned release (``"0.4.30"``), or ``None`` when nothing above pins it."""
        directory = os.path.abspath(directory)
        cached = self._resolved.get(directory)
        if cached is not None:
            return cached
        result: dict[str, str | None] = dict.fromkeys(PINNED_SETTINGS)
        pending = dict(PINNED_SETTINGS)
        current = directory
        while pending:
            pins = self._pins(current)
            for field, library in list(pending.items()):
                if library in pins:
                    bound = pins[library]
                    result[field] = format_version(bound) if bound is not None else None
                    del pending[field]
            parent = os.path.dirname(current)
            if parent == current or os.path.exists(os.path.join(current, ".git")):
                break
            current = parent
        self._resolved[directory] = result
        return result
