"""Client settings, and the engine settings each document is checked with.

Settings reach the server three ways: ``initializationOptions`` (sent once, with ``initialize``),
``workspace/configuration`` (pulled by the server, section ``xlalens``) and
``workspace/didChangeConfiguration`` (pushed by the client). Each pull or push carries the whole
current section, so it replaces the previous one; initialization options stay underneath for keys
the section does not mention. The result is merged with the project's ``[tool.xlalens]``
configuration found from each document's path, the client's rule selection applying on top of it
the way command-line flags do.

Keys (camelCase, as editors write them)::

    select, ignore, extendSelect   rule codes or prefixes, as on the command line
    preview                        run preview rules
    severity                       {"JX106": "information", "JX1": "error"}: selector -> severity
    unsafeFixes                    offer fixes that may change behaviour as quick fixes
    fixAll                         offer the source.fixAll.xlalens action (default true)
    codeAction                     {"fixViolation": {"enable": true}, "disableRuleComment": {"enable": true}}:
                                   which quick fixes to offer (ruff's keys)
    run                            "onType" (default) or "onSave": when diagnostics are refreshed
    debounceMs                     delay after the last keystroke before checking (default 150)
    inlayHints                     show inferred dtype[shape] hints (default true)
    explainerBaseUrl               where diagnostics link to (default: the project's configuration)
    configuration                  a configuration file to use instead of searching (like --config)

Examples:
    >>> settings, problems = parse_client_settings({"select": ["JX1"], "debounceMs": 0, "colour": 1})
    >>> settings.select, settings.debounce_ms
    (('JX1',), 0)
    >>> problems[0].split(";")[0]
    'unknown setting `xlalens.colour`'
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types
from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.engine import registry
from xlalens.analyzers.project.config import ConfigError, Overrides, SettingsResolver

SECTION = "xlalens"
"""The configuration section the server reads."""

_SEVERITIES: dict[str, types.DiagnosticSeverity] = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}
_ENGINE_SEVERITIES: dict[Severity, types.DiagnosticSeverity] = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
_RUN_MODES = ("onType", "onSave")


@dataclass(frozen=True, kw_only=True)
class ClientSettings:
    """What the editor configured; every field has a default.

    Attributes:
        select: Rule selectors replacing the configured selection (``None`` keeps it).
        ignore: Rule selectors turned off on top of the configuration.
        extend_select: Rule selectors turned on on top of the configuration.
        preview: Run preview rules (``None`` keeps the configuration's choice).
        severity: Selector -> the severity diagnostics of matching rules are shown with.
        unsafe_fixes: Offer fixes that may change behaviour.
        run: ``"onType"`` checks while typing, ``"onSave"`` only on open and save.
        debounce_ms: Quiet time after a change before a document is checked.
        inlay_hints: Show inferred ``dtype[shape]`` inlay hints.
        explainer_base_url: Base URL of explainer links, overriding the configuration.
        configuration: A configuration file used for every document instead of searching.
        fix_all: Offer the fix-all source action.
        fix_violation: Offer each finding's fix as a quick fix.
        disable_rule_comment: Offer the ``# noqa`` quick fix.
    """

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    preview: bool | None = None
    severity: Mapping[str, types.DiagnosticSeverity] = field(default_factory=dict)
    unsafe_fixes: bool = False
    run: str = "onType"
    debounce_ms: int = 150
    inlay_hints: bool = True
    explainer_base_url: str | None = None
    configuration: str | None = None
    fix_all: bool = True
    fix_violation: bool = True
    disable_rule_comment: bool = True

    def severity_of(self, code: str, default: Severity) -> types.DiagnosticSeverity:
        """The severity to show ``code`` with: the longest matching ``severity`` selector, else the rule's."""
        matches = [s for s in self.severity if code.startswith(s)]
        if matches:
            return self.severity[max(matches, key=len)]
        return _ENGINE_SEVERITIES[default]


def _selectors(key: str, value: Any, problems: list[str]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"must be a list of rule codes or prefixes, not {value!r}")
    valid = []
    for selector in value:
        try:
            registry.validate_selectors([selector])
        except registry.UnknownSelectorError as error:
            problems.append(f"`{SECTION}.{key}`: {error}")
            continue
        valid.append(selector.strip().upper())
    return tuple(valid)


def _boolean(key: str, value: Any, problems: list[str]) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"must be true or false, not {value!r}")
    return value


_CODE_ACTIONS = {"fixViolation": "fix_violation", "disableRuleComment": "disable_rule_comment"}


def _code_actions(key: str, value: Any, problems: list[str]) -> dict[str, bool]:
    """``{"fixViolation": {"enable": false}}`` -> ``{"fix_violation": False}``; unknown kinds are reported."""
    if not isinstance(value, dict):
        raise TypeError(f'must be a table such as {{"fixViolation": {{"enable": true}}}}, not {value!r}')
    chosen = {}
    for kind, options in value.items():
        if kind not in _CODE_ACTIONS:
            problems.append(f"`{SECTION}.{key}.{kind}`: unknown code action; use one of: {', '.join(_CODE_ACTIONS)}")
            continue
        enable = options.get("enable") if isinstance(options, dict) else None
        if not isinstance(enable, bool):
            problems.append(f'`{SECTION}.{key}.{kind}` must be {{"enable": true or false}}, not {options!r}')
            continue
        chosen[_CODE_ACTIONS[kind]] = enable
    return chosen


def _severity_map(key: str, value: Any, problems: list[str]) -> dict[str, types.DiagnosticSeverity]:
    if not isinstance(value, dict):
        raise TypeError(f"must be a table of rule selector -> severity, not {value!r}")
    mapping = {}
    for selector, level in value.items():
        severity = _SEVERITIES.get(str(level).lower())
        if severity is None:
            valid = ", ".join(_SEVERITIES)
            problems.append(f"`{SECTION}.{key}.{selector}`: unknown severity {level!r}; use one of: {valid}")
            continue
        for checked in _selectors(f"{key}.{selector}", [selector], problems):
            mapping[checked] = severity
    return mapping


def _run_mode(key: str, value: Any, problems: list[str]) -> str:
    if value not in _RUN_MODES:
        raise TypeError(f"must be one of {', '.join(_RUN_MODES)}, not {value!r}")
    return str(value)


def _milliseconds(key: str, value: Any, problems: list[str]) -> int:
    if type(value) is not int or not 0 <= value <= 10_000:
        raise TypeError(f"must be a whole number of milliseconds from 0 to 10000, not {value!r}")
    return value


def _text(key: str, value: Any, problems: list[str]) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise TypeError(f"must be a string, not {value!r}")
    return value


# Key -> (attribute, converter); an empty attribute: the converter returns a mapping of attributes.
_KEYS: dict[str, tuple[str, Callable[[str, Any, list[str]], Any]]] = {
    "select": ("select", _selectors),
    "ignore": ("ignore", _selectors),
    "extendSelect": ("extend_select", _selectors),
    "preview": ("preview", _boolean),
    "severity": ("severity", _severity_map),
    "unsafeFixes": ("unsafe_fixes", _boolean),
    "run": ("run", _run_mode),
    "debounceMs": ("debounce_ms", _milliseconds),
    "inlayHints": ("inlay_hints", _boolean),
    "explainerBaseUrl": ("explainer_base_url", _text),
    "configuration": ("configuration", _text),
    "fixAll": ("fix_all", _boolean),
    "codeAction": ("", _code_actions),  # sets several attributes
}

VALID_KEYS: tuple[str, ...] = tuple(sorted(_KEYS))
"""The settings the server understands."""


def parse_client_settings(raw: Mapping[str, Any]) -> tuple[ClientSettings, list[str]]:
    """Validate the editor's settings; a bad value keeps its default and is reported.

    Returns:
        The settings and one message per problem (unknown key, wrong type, unknown rule code).
    """
    values: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in raw.items():
        if key not in _KEYS:
            problems.append(f"unknown setting `{SECTION}.{key}`; valid settings are: {', '.join(VALID_KEYS)}")
            continue
        if value is None:  # editors send null for "not set"
            continue
        attribute, convert = _KEYS[key]
        try:
            converted = convert(key, value, problems)
        except TypeError as error:
            problems.append(f"`{SECTION}.{key}` {error}; using the default")
            continue
        if attribute:
            values[attribute] = converted
        else:
            values.update(converted)
    return ClientSettings(**values), problems


def section_of(payload: Any) -> dict[str, Any] | None:
    """The ``xlalens`` settings inside what a client sent, or ``None`` when it sent none.

    Accepts ``{"xlalens": {...}}``, the section itself, and the shape the VS Code extension
    template sends as initialization options: ``{"settings": [{...}], "globalSettings": {...}}``
    (global settings under the first workspace's).

    Examples:
        >>> section_of({"xlalens": {"preview": True}})
        {'preview': True}
        >>> section_of({"globalSettings": {"preview": True}, "settings": [{"select": ["JX1"]}]})
        {'preview': True, 'select': ['JX1']}
        >>> section_of({"python": {"analysis": {}}}) is None
        True
    """
    if not isinstance(payload, dict):
        return None
    if isinstance(payload.get(SECTION), dict):
        return dict(payload[SECTION])
    if "settings" in payload or "globalSettings" in payload:
        merged: dict[str, Any] = {}
        for part in (payload.get("globalSettings"), payload.get("settings")):
            if isinstance(part, list):
                part = part[0] if part else None
            if isinstance(part, dict):
                merged.update(section_of(part) or {})
        return merged
    if payload and set(payload) <= set(_KEYS) | {"workspace", "interpreter", "importStrategy", "path"}:
        # The section itself; the extension template adds a few keys of its own to it.
        return {k: v for k, v in payload.items() if k in _KEYS}
    return None


class SettingsStore:
    """The client's settings and the engine settings for each document.

    Args:
        root: The workspace folder; relative paths in settings are resolved against it.
    """

    def __init__(self, root: str | None = None) -> None:
        self.root = root or os.getcwd()
        self.client = ClientSettings()
        self.generation = 0
        self._initialization: dict[str, Any] = {}
        self._section: dict[str, Any] = {}
        self._resolver: SettingsResolver | None = None
        self._errors: list[str] = []

    def update(
        self, *, initialization: dict[str, Any] | None = None, section: dict[str, Any] | None = None
    ) -> list[str]:
        """Take new initialization options or a new section; return the problems found in them."""
        if initialization is not None:
            self._initialization = initialization
        if section is not None:
            self._section = section
        self.client, problems = parse_client_settings({**self._initialization, **self._section})
        self.reload()
        return problems

    def reload(self) -> None:
        """Forget cached project configuration (after a configuration file changed on disk)."""
        self._resolver = None
        self.generation += 1

    def _project_resolver(self) -> SettingsResolver:
        if self._resolver is None:
            client = self.client
            overrides = Overrides(
                select=client.select,
                ignore=client.ignore,
                extend_select=client.extend_select,
                preview=client.preview,
            )
            config_file = os.path.join(self.root, client.configuration) if client.configuration else None
            try:
                self._resolver = SettingsResolver(self.root, config_file=config_file, overrides=overrides)
            except ConfigError as error:
                self._errors.append(str(error))
                self._resolver = SettingsResolver(self.root, overrides=overrides)
        return self._resolver

    def for_path(self, path: str | None) -> Settings:
        """The engine settings for a document at ``path`` (``None`` for an unsaved one).

        A configuration that cannot be used is reported by :meth:`take_errors` and replaced by
        the defaults, so a typo in ``pyproject.toml`` never stops the checking.
        """
        resolver = self._project_resolver()
        try:
            settings = resolver.for_file(path) if path else resolver.default()
        except ConfigError as error:
            self._errors.append(str(error))
            settings = resolver.default()
        if self.client.explainer_base_url:
            settings = dataclasses.replace(settings, explainer_base_url=self.client.explainer_base_url)
        return settings

    def take_errors(self) -> list[str]:
        """Configuration errors found since the last call."""
        errors, self._errors = self._errors, []
        return errors
