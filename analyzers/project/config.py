"""Project configuration: ``[tool.xlalens]`` in ``pyproject.toml``, or a top-level ``xlalens.toml``.

Each file is checked with the configuration nearest to it: walking up from the file's directory,
the first directory with an ``xlalens.toml``, or a ``pyproject.toml`` that has a ``[tool.xlalens]``
table, wins (``xlalens.toml`` first when a directory has both). Paths and glob patterns in a
configuration are relative to its directory, which becomes :attr:`Settings.root`.

Every key is validated when the file is loaded: an unknown key, a value of the wrong type or a rule
selector that matches no rule is a :class:`ConfigError` naming the file, the key and what is valid.
Command-line flags are applied on top with :func:`apply_overrides`.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlalens.analyzers.core.codes import matches_non_rule_code
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.core.versions import format_version, parse_version
from xlalens.analyzers.engine import registry
from xlalens.analyzers.output import format_names
from xlalens.analyzers.project.package_x64 import PackageX64
from xlalens.analyzers.project.pins import PINNED_SETTINGS, ProjectPins
from xlalens.explainers.calculators.blockspec import TPUS

CONFIG_FILENAMES: tuple[str, ...] = ("xlalens.toml", "pyproject.toml")
"""The files searched in each directory, in order of preference."""


class ConfigError(Exception):
    """A configuration file that cannot be used; ``str()`` is the message for the user."""


def _strings(key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"`{key}` must be a list of strings, not {value!r}")
    return tuple(value)


def _per_file_ignores(key: str, value: Any) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise TypeError(f"`{key}` must be a table of glob = [selectors], not {value!r}")
    return {pattern: _strings(f"{key}.{pattern}", v) for pattern, v in value.items()}


def _boolean(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"`{key}` must be true or false, not {value!r}")
    return value


def _string(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError(f"`{key}` must be a non-empty string, not {value!r}")
    return value


def _choice(choices: Sequence[str]) -> Callable[[str, Any], str]:
    """A validator for a string that must be one of ``choices``."""

    def check(key: str, value: Any) -> str:
        text = _string(key, value)
        if text not in choices:
            raise TypeError(f"`{key}` must be one of {', '.join(map(repr, choices))}, not {text!r}")
        return text

    return check


def _positive_int(key: str, value: Any) -> int:
    # bool is an int subclass; `device-count = true` is a mistake, not 1.
    if type(value) is not int or value < 1:
        raise TypeError(f"`{key}` must be a positive integer, not {value!r}")
    return value


def _release(key: str, value: Any) -> str:
    # A bare TOML number (`jax-version = 0.4`) cannot hold 0.4.30 or tell 0.10 from 0.1: strings only.
    parsed = parse_version(value) if isinstance(value, str) else None
    if parsed is None or len(parsed) < 2:
        raise TypeError(f'`{key}` must be a release number in quotes, such as "0.4.30" or "2.9", not {value!r}')
    return format_version(parsed)


_KEYS: dict[str, tuple[str, Callable[[str, Any], Any]]] = {
    "select": ("select", _strings),
    "ignore": ("ignore", _strings),
    "extend-select": ("extend_select", _strings),
    "per-file-ignores": ("per_file_ignores", _per_file_ignores),
    "exclude": ("exclude", _strings),
    "extend-exclude": ("extend_exclude", _strings),
    "preview": ("preview", _boolean),
    "explainer-base-url": ("explainer_base_url", _string),
    "tpu-generation": ("tpu_generation", _choice(tuple(TPUS))),
    "target": ("target", _choice(("tpu", "gpu"))),
    "device-count": ("device_count", _positive_int),
    "captured-constant-bytes": ("captured_constant_bytes", _positive_int),
    "jax-version": ("jax_version", _release),
    "torch-xla-version": ("torch_xla_version", _release),
    "output-format": ("output_format", _choice(format_names())),
    "unsafe-fixes": ("unsafe_fixes", _boolean),
    "fixable": ("fixable", _strings),
    "unfixable": ("unfixable", _strings),
}

VALID_KEYS: tuple[str, ...] = tuple(sorted(_KEYS))
"""The keys ``[tool.xlalens]`` accepts."""


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not valid TOML: {error}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not valid TOML: it is not UTF-8") from None
    except OSError as error:
        raise ConfigError(f"cannot read {path}: {error.strerror or error}") from None


def _table(path: Path) -> dict[str, Any] | None:
    """The xlalens table of a config file, or ``None`` for a pyproject without one."""
    data = _read_toml(path)
    if path.name != "pyproject.toml":
        return data
    tool = data.get("tool", {})
    table = tool.get("xlalens") if isinstance(tool, dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: `tool.xlalens` must be a table")
    return table


def find_config(start: str | os.PathLike[str]) -> Path | None:
    """The configuration file that applies to ``start`` (a file or directory), or ``None``.

    Raises:
        ConfigError: if a candidate file is not valid TOML.
    """
    directory = Path(os.path.abspath(start))
    if not directory.is_dir():
        directory = directory.parent
    for candidate_dir in (directory, *directory.parents):
        found = _config_in(candidate_dir)
        if found is not None:
            return found
    return None


def _config_in(directory: Path) -> Path | None:
    for name in CONFIG_FILENAMES:
        candidate = directory / name
        # os.path.isfile is False for what cannot be asked (a path longer than the system allows, a link loop).
        if os.path.isfile(candidate) and _table(candidate) is not None:
            return candidate
    return None


def _validate_selectors(path: Path, key: str, selectors: Sequence[str]) -> None:
    try:
        registry.validate_selectors(selectors)
    except registry.UnknownSelectorError as error:
        raise ConfigError(f"{path}: `{key}`: {error}") from None


def load_config(path: str | os.PathLike[str]) -> Settings:
    """Read one configuration file into :class:`Settings` (``root`` = its directory).

    A ``pyproject.toml`` without ``[tool.xlalens]`` gives the defaults.

    Raises:
        ConfigError: for invalid TOML, an unknown key, a wrong type or an unknown rule selector.
    """
    file = Path(os.path.abspath(path))
    table = _table(file) or {}
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in _KEYS:
            valid = ", ".join(VALID_KEYS)
            raise ConfigError(f"{file}: unknown configuration key `{key}`; valid keys are: {valid}")
        field, convert = _KEYS[key]
        try:
            values[field] = convert(key, value)
        except TypeError as error:
            raise ConfigError(f"{file}: {error}") from None
    for key in ("select", "ignore", "extend-select", "fixable", "unfixable"):
        _validate_selectors(file, key, values.get(_KEYS[key][0]) or ())
    for pattern, selectors in values.get("per_file_ignores", {}).items():
        _validate_selectors(file, f"per-file-ignores.{pattern}", selectors)
    return Settings(root=str(file.parent), **values)


@dataclass(frozen=True)
class Overrides:
    """Settings given on the command line; ``None`` (or empty) leaves the configuration's value.

    Rule selection follows ruff: a ``select`` here replaces the configuration's whole selection;
    without one, ``extend_select`` and ``ignore`` apply on top of what the configuration selects.
    """

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    preview: bool | None = None

    def validate(self) -> None:
        """Check every selector against the registry.

        Raises:
            registry.UnknownSelectorError: listing the valid selectors.
        """
        registry.validate_selectors([*(self.select or ()), *self.ignore, *self.extend_select])


def _layered_selection(base: Settings, overrides: Overrides, preview: bool) -> tuple[str, ...]:
    """The rule codes that run when ``overrides`` adds/ignores on top of ``base``'s selection."""
    rules = registry.select_rules(
        base.select,
        base.ignore,
        base.extend_select,
        preview,
        layers=[(overrides.extend_select, overrides.ignore)],
    )
    return tuple(rule.code for rule in rules)


def apply_overrides(settings: Settings, overrides: Overrides) -> Settings:
    """``settings`` with the command-line ``overrides`` applied (ruff's precedence).

    Examples:
        >>> apply_overrides(Settings(ignore=("JX1",)), Overrides(select=("JX",))).ignore
        ()
    """
    changes: dict[str, Any] = {}
    preview = settings.preview if overrides.preview is None else overrides.preview
    if overrides.preview is not None:
        changes["preview"] = overrides.preview
    if overrides.select is not None:
        changes.update(select=overrides.select, ignore=overrides.ignore, extend_select=overrides.extend_select)
    elif overrides.ignore or overrides.extend_select:
        has_own = settings.select is not None or settings.ignore or settings.extend_select
        if has_own:
            # Two layers cannot be merged into one select/ignore list without changing which
            # selector wins, so hand on the resolved codes instead.
            changes.update(
                select=_layered_selection(settings, overrides, preview),
                # Codes that are not rules have no place in a resolved rule list: keep their ignores.
                ignore=tuple(s for s in (*settings.ignore, *overrides.ignore) if matches_non_rule_code(s)),
                extend_select=(),
            )
        else:
            changes.update(ignore=overrides.ignore, extend_select=overrides.extend_select)
    if overrides.exclude is not None:
        changes["exclude"] = overrides.exclude
    if overrides.extend_exclude:
        changes["extend_exclude"] = (*settings.extend_exclude, *overrides.extend_exclude)
    return dataclasses.replace(settings, **changes) if changes else settings


class SettingsResolver:
    """Finds the settings for any path, one configuration lookup per directory.

    Args:
        cwd: The directory relative paths and the default root are taken from.
        config_file: Use this file for every path instead of searching (``--config``).
        overrides: Command-line settings applied on top of every configuration.
    """

    def __init__(
        self,
        cwd: str | os.PathLike[str] | None = None,
        *,
        config_file: str | os.PathLike[str] | None = None,
        overrides: Overrides | None = None,
    ) -> None:
        self._cwd = Path(os.path.abspath(cwd or os.getcwd()))
        self._overrides = overrides or Overrides()
        self._fixed: Settings | None = None
        self._fixed_file: Path | None = None
        if config_file is not None:
            file = self._fixed_file = Path(os.path.abspath(config_file))
            if not file.is_file():
                raise ConfigError(f"configuration file {file} does not exist")
            self._fixed = apply_overrides(load_config(file), self._overrides)
        self._default: Settings | None = None
        self._by_dir: dict[str, Settings] = {}
        self._pins = ProjectPins()
        self._x64 = PackageX64()
        self._pinned: dict[str, Settings] = {}
        self._variants: dict[tuple[int, tuple[tuple[str, str | None], ...]], Settings] = {}

    @property
    def cwd(self) -> Path:
        """The directory the run started in."""
        return self._cwd

    def default(self) -> Settings:
        """The settings for a path with no configuration above it (root = ``cwd``)."""
        if self._fixed is not None:
            return self._fixed
        if self._default is None:
            self._default = apply_overrides(Settings(root=str(self._cwd)), self._overrides)
        return self._default

    def absolute(self, path: str | os.PathLike[str]) -> str:
        """``path`` made absolute against :attr:`cwd` (not the process's working directory)."""
        return os.path.normpath(os.path.join(self._cwd, path))

    def for_directory(self, directory: str | os.PathLike[str]) -> Settings:
        """The settings for files directly inside ``directory``.

        Raises:
            ConfigError: if the configuration that applies is invalid.
        """
        # Called for every file of a run: plain strings and one dict lookup on the common path.
        start = self.absolute(directory)
        pinned = self._pinned.get(start)
        if pinned is not None:
            return pinned
        settings = self._fixed if self._fixed is not None else self._configured(start)
        pinned = self._pinned[start] = self._with_pins(settings, start)
        return pinned

    def _with_pins(self, settings: Settings, directory: str) -> Settings:
        """``settings`` with the library releases it leaves unset taken from the project's pins, and
        what the package around ``directory`` says about x64."""
        changes: dict[str, object] = {}
        missing = [field for field in PINNED_SETTINGS if getattr(settings, field) is None]
        if missing:
            found = self._pins.settings_for(directory)
            changes.update({field: found[field] for field in missing if found.get(field) is not None})
        if not settings.x64_in_package and self._x64.enabled_for(directory):
            changes["x64_in_package"] = True
        if not changes:
            return settings
        # One Settings object per distinct result, so the result cache fingerprints it once.
        key = (id(settings), tuple(sorted(changes.items())))
        shared = self._variants.get(key)
        if shared is None:
            shared = self._variants[key] = dataclasses.replace(settings, **changes)
        return shared

    def _configured(self, start: str) -> Settings:
        """The settings the nearest configuration file gives ``start`` (the default without one)."""
        cached = self._by_dir.get(start)
        if cached is not None:
            return cached
        chain: list[str] = []
        settings: Settings | None = None
        current = start
        while True:
            cached = self._by_dir.get(current)
            if cached is not None:
                settings = cached
                break
            chain.append(current)
            found = _config_in(Path(current))
            if found is not None:
                settings = apply_overrides(load_config(found), self._overrides)
                break
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
        if settings is None:
            settings = self.default()
        for visited in chain:
            self._by_dir[visited] = settings
        return settings

    def config_file(self, path: str | os.PathLike[str]) -> Path | None:
        """The configuration file that applies to ``path`` (``--config``'s, or the nearest one), if any."""
        if self._fixed_file is not None:
            return self._fixed_file
        absolute = Path(self.absolute(path))
        for directory in (absolute, *absolute.parents):
            found = _config_in(directory) if directory.is_dir() else None
            if found is not None:
                return found
        return None

    def for_file(self, path: str | os.PathLike[str]) -> Settings:
        """The settings for the file ``path`` (which is not stat'ed: it may be stdin's name)."""
        return self.for_directory(os.path.dirname(self.absolute(path)))

    def for_path(self, path: str | os.PathLike[str]) -> Settings:
        """The settings for the file or directory ``path``."""
        absolute = self.absolute(path)
        return self.for_directory(absolute if os.path.isdir(absolute) else os.path.dirname(absolute))


def settings_mapping_summary(settings: Settings) -> Mapping[str, Any]:
    """The values of ``settings`` by configuration key, as ``--show-settings`` prints them."""
    return {key: getattr(settings, field) for key, (field, _) in sorted(_KEYS.items())}
