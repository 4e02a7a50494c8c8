"""A content-hash cache of diagnostics, so an unchanged tree re-checks in a fraction of the time.

An entry is found by the file's path inside a *shard*; the shard is chosen by everything else that
can change the diagnostics: the settings (fingerprinted), the xlalens version and a stamp of the
analyzer's own source files (so rules edited in a development install never serve stale results).
Within a shard the real key is the SHA-256 of the file's bytes. To make a warm run cheap, an entry
also records the file's ``(mtime_ns, size)``: when ``stat`` still matches, the file is not even
read. A file modified less than :data:`RACY_SECONDS` before it was stored is recorded without its
stat (git's "racily clean" rule), since a later edit within the same timestamp tick would
otherwise go unnoticed; such a file is hashed next time and gets its stat recorded then.

Each shard is one JSON file under ``<cache dir>/<version>/``, written atomically; a damaged or
unreadable shard is treated as empty. The cache directory gets a ``CACHEDIR.TAG`` and a
``.gitignore`` so backup tools and git leave it alone.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xlalens.analyzers.core.diagnostics import Diagnostic
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.inputs.fileio import sha256_hex
from xlalens.analyzers.project.serialize import (
    SerializationError,
    diagnostic_from_dict,
    diagnostic_to_dict,
)

RACY_SECONDS = 2.0
"""Files modified this recently when stored are re-hashed next time instead of trusted by stat."""

_FORMAT = 1  # bump when the shard layout changes
_CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by xlalens.\n"
)


def stamped_packages() -> tuple[Path, ...]:
    """The source folders whose code computes diagnostics: the analyzers and the explainers beside them.

    Messages quote the calculators (``explainers/calculators``), so a calculator edited in a
    development install must invalidate the cache just as an edited rule does. Both folders sit side
    by side in the repository and in an installed ``xlalens`` package.
    """
    analyzers = Path(__file__).resolve().parents[1]
    return analyzers, analyzers.parent / "explainers"


def package_stamp(roots: Sequence[Path] | None = None) -> str:
    """A hash of the ``(name, mtime, size)`` of every source file of :func:`stamped_packages`.

    It changes whenever a rule, the engine or a calculator is edited or upgraded, so the cache cannot
    serve diagnostics computed by older code even when the version number stayed the same.
    """
    digest = hashlib.sha256()
    for root in stamped_packages() if roots is None else roots:
        for directory, subdirs, files in os.walk(root):
            subdirs[:] = sorted(d for d in subdirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    path = os.path.join(directory, name)
                    with contextlib.suppress(OSError):
                        info = os.stat(path)
                        digest.update(f"{path}\0{info.st_mtime_ns}\0{info.st_size}\n".encode())
    return digest.hexdigest()[:16]


def settings_fingerprint(settings: Settings) -> str:
    """A stable hash of every setting (two equal ``Settings`` give the same fingerprint)."""
    data = dataclasses.asdict(settings)
    text = json.dumps(data, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Cache:
    """Diagnostics of previously checked files, keyed by content.

    Args:
        directory: The cache directory (created on first save).
        version: The xlalens version; each version has its own subdirectory.
        stamp: Identifies the analyzer code; defaults to :func:`package_stamp`.
    """

    def __init__(self, directory: str | os.PathLike[str], version: str, stamp: str | None = None):
        self.directory = Path(directory)
        self._version_dir = self.directory / _safe_name(version)
        self._stamp = package_stamp() if stamp is None else stamp
        self._fingerprints: dict[int, tuple[Settings, str]] = {}
        self._shards: dict[str, dict[str, list[Any]]] = {}
        self._dirty: dict[str, dict[str, list[Any]]] = {}
        self.hits = 0
        self.misses = 0
        self.errors: list[str] = []

    def _shard_key(self, settings: Settings) -> str:
        # One Settings object per configuration is reused for every file, so memoize by identity.
        entry = self._fingerprints.get(id(settings))
        if entry is None:
            key = f"{self._stamp}-{settings_fingerprint(settings)}"
            entry = (settings, key)
            self._fingerprints[id(settings)] = entry
        return entry[1]

    def _shard_path(self, key: str) -> Path:
        return self._version_dir / f"{key}.json"

    def _read_shard(self, key: str) -> dict[str, list[Any]]:
        try:
            data = json.loads(self._shard_path(key).read_bytes())
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            return {}
        entries = data.get("entries")
        return entries if isinstance(entries, dict) else {}

    def _shard(self, key: str) -> dict[str, list[Any]]:
        shard = self._shards.get(key)
        if shard is None:
            shard = self._shards[key] = self._read_shard(key)
        return shard

    def lookup(self, path: str | os.PathLike[str], settings: Settings) -> list[Diagnostic] | None:
        """The cached diagnostics of the file at ``path``, or ``None`` when it must be checked."""
        name = os.fspath(path)
        key = self._shard_key(settings)
        entry = self._shard(key).get(name)
        diagnostics = self._lookup_entry(name, key, entry)
        if diagnostics is None:
            self.misses += 1
        else:
            self.hits += 1
        return diagnostics

    def _lookup_entry(self, name: str, key: str, entry: Any) -> list[Diagnostic] | None:
        if not (isinstance(entry, list) and len(entry) == 4):
            return None
        mtime_ns, size, digest, stored = entry
        try:
            info = os.stat(name)
        except OSError:
            return None
        if not (mtime_ns and info.st_mtime_ns == mtime_ns and info.st_size == size):
            try:
                data = Path(name).read_bytes()
            except OSError:
                return None
            if sha256_hex(data) != digest:
                return None
            # Same content, new stat (touched, or stored while racy): record the stat if it is safe.
            self._put(key, name, digest, info, stored)
        try:
            return [diagnostic_from_dict(d) for d in stored]
        except (SerializationError, TypeError):
            return None

    def store(
        self,
        path: str | os.PathLike[str],
        settings: Settings,
        digest: str,
        diagnostics: Sequence[Diagnostic],
    ) -> None:
        """Remember ``diagnostics`` for the file at ``path`` whose bytes hash to ``digest``."""
        name = os.fspath(path)
        try:
            info = os.stat(name)
        except OSError:
            return
        self._put(
            self._shard_key(settings),
            name,
            digest,
            info,
            [diagnostic_to_dict(d) for d in diagnostics],
        )

    def _put(self, key: str, name: str, digest: str, info: os.stat_result, stored: list[Any]) -> None:
        racy = time.time_ns() - info.st_mtime_ns < RACY_SECONDS * 1e9
        entry = [0 if racy else info.st_mtime_ns, info.st_size, digest, stored]
        self._shard(key)[name] = entry
        self._dirty.setdefault(key, {})[name] = entry

    def save(self) -> None:
        """Write the shards that changed; failures are recorded in :attr:`errors`, never raised."""
        for key, changed in self._dirty.items():
            # Merge with what another run may have written since this one read the shard.
            entries = {**self._read_shard(key), **changed}
            entries = {name: e for name, e in entries.items() if os.path.exists(name)}
            try:
                self._prepare_directory()
                _atomic_write_json(self._shard_path(key), {"format": _FORMAT, "entries": entries})
            except OSError as error:
                self.errors.append(f"cannot write cache in {self.directory}: {error.strerror or error}")
                break
        self._dirty.clear()

    def _prepare_directory(self) -> None:
        self._version_dir.mkdir(parents=True, exist_ok=True)
        for name, text in (("CACHEDIR.TAG", _CACHEDIR_TAG), (".gitignore", "*\n")):
            marker = self.directory / name
            if not marker.exists():
                marker.write_text(text, encoding="utf-8")


def _safe_name(version: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in version) or "unknown"


def _atomic_write_json(path: Path, data: Any) -> None:
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, separators=(",", ":"))
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
