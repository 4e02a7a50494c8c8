"""Checking dependency declarations: requirements files, ``pyproject.toml``, ``setup.cfg`` and ``setup.py``.

Some problems live in what a project installs, not in its code: torch_xla's native extension links
one exact libtorch, so a torch pin and a torch_xla pin that disagree on major.minor give an
environment that cannot import torch_xla. This module reads the requirements each kind of file
declares, with the exact position of each one; the rules that check them run in
:mod:`xlalens.analyzers.engine.dependency_check`. ``xlalens check`` discovers the files by name
(:func:`is_dependency_file`). ``setup.py`` stays a Python file: its ``setup(...)`` call is read
from the parsed module by :func:`setup_call_requirements`.
"""

from __future__ import annotations

import ast
import functools
import os
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass

from xlalens.analyzers.core.diagnostics import Position, Range, RelatedLocation
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.core.versions import UNBOUNDED_PATCH, Version, release_before

_NAME = re.compile(r"\s*(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*(?P<rest>.*)$", re.S)
_CLAUSE = re.compile(r"^\s*(?P<op>===|==|~=|!=|<=|>=|<|>)\s*(?P<version>[0-9][0-9A-Za-z.*+!_-]*)\s*$")
_RELEASE = re.compile(r"^(?:\d+!)?(?P<release>\d+(?:\.\d+)*)(?P<wild>\.\*)?")
_WHEEL_VERSION = re.compile(r"/(?P<name>[A-Za-z0-9_.]+)-(?P<version>\d+(?:\.\d+)+)[^/]*\.(?:whl|tar\.gz|zip)$")

MinorVersion = tuple[int, int]


def normalize(name: str) -> str:
    """A distribution name the way pip compares them (PEP 503).

    Examples:
        >>> normalize("Torch_XLA"), normalize("torch.xla")
        ('torch-xla', 'torch-xla')
    """
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True, slots=True)
class Requirement:
    """One declared requirement.

    Attributes:
        name: The normalized distribution name (``torch-xla``).
        text: The requirement as written.
        range: Where it is written.
        minor: The major.minor release every version it allows shares, when it allows only one.
        highest: The newest release it allows, when it has an upper bound (``==0.4.30``,
            ``<0.5``, ``~=2.9.0``); ``None`` when any newer release would do.
    """

    name: str
    text: str
    range: Range
    minor: MinorVersion | None
    highest: Version | None = None


def _release(version: str) -> tuple[list[int], bool] | None:
    match = _RELEASE.match(version)
    if match is None:
        return None
    return [int(p) for p in match.group("release").split(".")], match.group("wild") is not None


def pinned_minor(specifier: str) -> MinorVersion | None:
    """The single major.minor a version specifier allows, or None when it allows several (or is unreadable).

    Examples:
        >>> pinned_minor("==2.9.0"), pinned_minor("~=2.9.1"), pinned_minor(">=2.9,<2.10")
        ((2, 9), (2, 9), (2, 9))
        >>> pinned_minor(">=2.8"), pinned_minor("~=2.9"), pinned_minor("==2.9.0+cpu")
        (None, None, (2, 9))
    """
    lowest: MinorVersion | None = None
    highest: MinorVersion | None = None
    for clause in specifier.split(","):
        if not clause.strip():
            continue
        match = _CLAUSE.match(clause)
        if match is None:
            return None
        operator, parsed = match.group("op"), _release(match.group("version"))
        if parsed is None:
            return None
        release, wild = parsed
        major, minor = release[0], release[1] if len(release) > 1 else None
        if operator in ("==", "==="):
            if minor is None:
                return None
            return major, minor
        if operator == "~=" and len(release) >= 3 and minor is not None:
            return major, minor
        if operator in (">=", ">") and minor is not None:
            lowest = (major, minor)
        elif operator == "<=" and minor is not None and not wild:
            highest = (major, minor)
        elif operator == "<" and minor is not None:
            exact_minor = all(part == 0 for part in release[2:])
            highest = (major, minor - 1) if exact_minor and minor > 0 else (major, minor)
    return lowest if lowest is not None and lowest == highest else None


def highest_allowed(specifier: str) -> Version | None:
    """The newest release a version specifier allows, or None when it has no upper bound (or is unreadable).

    An exclusive bound gives the release just below it, with an open-ended last part
    (:data:`~xlalens.analyzers.core.versions.UNBOUNDED_PATCH`), and ``==0.4.*`` the last 0.4 release.

    Examples:
        >>> highest_allowed("==0.4.30"), highest_allowed(">=0.4,<0.5"), highest_allowed("~=2.9.0")
        ((0, 4, 30), (0, 4, 9999), (2, 9, 9999))
        >>> highest_allowed("<=0.6.2"), highest_allowed("==0.4.*"), highest_allowed(">=0.4.30")
        ((0, 6, 2), (0, 4, 9999), None)
    """
    highest: Version | None = None
    for clause in specifier.split(","):
        if not clause.strip():
            continue
        match = _CLAUSE.match(clause)
        if match is None:
            return None
        operator, parsed = match.group("op"), _release(match.group("version"))
        if parsed is None:
            return None
        release, wild = parsed
        bound: Version | None = None
        if operator in ("==", "===", "<="):
            bound = (*release, UNBOUNDED_PATCH) if wild else tuple(release)
        elif operator == "<":
            bound = release_before(tuple(release))
        elif operator == "~=" and len(release) >= 2:
            bound = (*release[:-1], UNBOUNDED_PATCH)
        if bound is not None and (highest is None or bound < highest):
            highest = bound
    return highest


def parse_requirement(text: str, range_: Range) -> Requirement | None:
    """Read one PEP 508 requirement (``name[extras] specifier ; marker`` or ``name @ url``).

    Examples:
        >>> start = Position(1, 0)
        >>> parse_requirement("torch_xla[tpu]==2.9.0 ; python_version >= '3.11'", Range(start, start)).minor
        (2, 9)
        >>> url = "torch @ https://example.org/torch-2.8.0%2Bcpu-cp311-cp311-linux_x86_64.whl"
        >>> parse_requirement(url, Range(start, start)).minor
        (2, 8)
    """
    match = _NAME.match(text)
    if match is None:
        return None
    name = normalize(match.group("name"))
    rest = match.group("rest").split(";", 1)[0].strip()
    if rest.startswith("@"):
        wheel = _WHEEL_VERSION.search(rest.split("#", 1)[0].strip())
        specifier = "==" + wheel.group("version") if wheel is not None else ""
    else:
        if rest.startswith("(") and rest.endswith(")"):
            rest = rest[1:-1]
        specifier = rest
    minor = pinned_minor(specifier) if specifier else None
    highest = highest_allowed(specifier) if specifier else None
    return Requirement(name, text.strip(), range_, minor, highest)


def _span(line: int, start: int, text: str) -> Range:
    return Range(Position(line, start), Position(line, start + len(text)))


def requirements_file(source: SourceText) -> list[Requirement]:
    """The requirements of a pip requirements file (options, comments and ``-r`` includes are skipped)."""
    found = []
    for number, line in enumerate(source.lines, start=1):
        content = re.split(r"(?:^|\s)#", line, maxsplit=1)[0].rstrip().rstrip("\\").rstrip()
        stripped = content.lstrip()
        if not stripped or stripped.startswith("-"):
            continue
        start = len(content) - len(stripped)
        requirement = parse_requirement(stripped, _span(number, start, stripped))
        if requirement is not None:
            found.append(requirement)
    return found


def _quoted_positions(source: SourceText, value: str) -> Iterator[Range]:
    """Every place ``value`` is written as a TOML string literal, in order."""
    for quote in ('"', "'"):
        literal = f"{quote}{value}{quote}"
        for number, line in enumerate(source.lines, start=1):
            column = line.find(literal)
            while column >= 0:
                yield _span(number, column + 1, value)
                column = line.find(literal, column + 1)


def pyproject_file(source: SourceText) -> list[Requirement]:
    """``[project] dependencies`` and ``[project.optional-dependencies]`` of a ``pyproject.toml``.

    A file that is not valid TOML declares nothing (other tools report it).
    """
    try:
        data = tomllib.loads(source.text)
    except tomllib.TOMLDecodeError:
        return []
    project = data.get("project")
    if not isinstance(project, dict):
        return []
    declared: list[str] = []
    dependencies = project.get("dependencies")
    if isinstance(dependencies, list):
        declared.extend(d for d in dependencies if isinstance(d, str))
    optional = project.get("optional-dependencies")
    if isinstance(optional, dict):
        for group in optional.values():
            if isinstance(group, list):
                declared.extend(d for d in group if isinstance(d, str))
    used: set[Range] = set()
    found = []
    for text in declared:
        where = next((r for r in _quoted_positions(source, text) if r not in used), None)
        if where is None:
            continue  # written with escapes or across lines: no exact position to point at
        used.add(where)
        requirement = parse_requirement(text, where)
        if requirement is not None:
            found.append(requirement)
    return found


def setup_cfg_file(source: SourceText) -> list[Requirement]:
    """``install_requires`` in ``[options]`` and every key of ``[options.extras_require]`` of a ``setup.cfg``."""
    found = []
    section = ""
    collecting = False
    for number, line in enumerate(source.lines, start=1):
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1].strip()
            collecting = False
            continue
        if not stripped or stripped.startswith(("#", ";")):
            continue
        indented = line[:1].isspace()
        value_start = 0
        if not indented:
            key, sep, _ = line.partition("=")
            key = key.strip()
            wanted = (section == "options" and key == "install_requires") or section == "options.extras_require"
            collecting = bool(sep) and wanted
            if not collecting:
                continue
            value_start = line.index("=") + 1
        elif not collecting:
            continue
        value = line[value_start:]
        text = value.strip()
        if text:
            requirement = parse_requirement(text, _span(number, value_start + value.index(text), text))
            if requirement is not None:
                found.append(requirement)
    return found


SETUP_FUNCTIONS = frozenset({"setuptools.setup", "distutils.core.setup"})
"""The calls whose ``install_requires``/``extras_require`` declare requirements in a ``setup.py``."""
_SETUP_KEYWORDS = frozenset({"install_requires", "extras_require", "setup_requires"})


def setup_call_requirements(call: ast.Call, qualname: str | None, source: SourceText) -> list[Requirement]:
    """The string literals of ``install_requires``/``extras_require`` in a ``setuptools.setup(...)`` call."""
    if qualname not in SETUP_FUNCTIONS:
        return []
    found = []
    for item in call.keywords:
        if item.arg not in _SETUP_KEYWORDS:
            continue
        for node in ast.walk(item.value):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.lineno == node.end_lineno:
                where = source.node_range(node)
                literal = source.segment(where)
                if literal[:1] in ("'", '"') and literal[1:2] != literal[:1] and literal.endswith(literal[:1]):
                    # A plain one-line literal: point inside the quotes, at the requirement itself.
                    where = Range(
                        Position(where.start.line, where.start.column + 1),
                        Position(where.end.line, where.end.column - 1),
                    )
                requirement = parse_requirement(node.value, where)
                if requirement is not None:
                    found.append(requirement)
    return found


_REQUIREMENT_FILE = re.compile(r"^(?:requirements|constraints)[\w.-]*\.(?:txt|in)$", re.I)


def is_dependency_file(path: str | os.PathLike[str]) -> bool:
    """Whether a path names a dependency file that ``xlalens check`` reads (by its name alone).

    Examples:
        >>> [is_dependency_file(p) for p in ("requirements-tpu.txt", "pyproject.toml", "setup.cfg", "notes.txt")]
        [True, True, True, False]
        >>> is_dependency_file("requirements/base.txt")
        True
    """
    name = os.path.basename(path)
    if name in ("pyproject.toml", "setup.cfg") or _REQUIREMENT_FILE.match(name):
        return True
    parent = os.path.basename(os.path.dirname(os.fspath(path)))
    return parent == "requirements" and name.endswith(".txt")


def declared_requirements(text: str, path: str) -> tuple[list[Requirement], SourceText]:
    """The requirements a dependency file declares, by its kind."""
    source = DependencySourceText(text)
    name = os.path.basename(path)
    if name == "pyproject.toml":
        return pyproject_file(source), source
    if name == "setup.cfg":
        return setup_cfg_file(source), source
    return requirements_file(source), source


def related(requirement: Requirement, path: str, message: str) -> RelatedLocation:
    """A requirement as a related location."""
    return RelatedLocation(path, requirement.range, message)


class DependencySourceText(SourceText):
    """A dependency file's text: ``#`` starts a comment on any line (Python's tokenizer does not apply)."""

    @functools.cached_property
    def _comments(self) -> dict[int, tuple[int, str]]:
        comments: dict[int, tuple[int, str]] = {}
        for number, line in enumerate(self.lines, start=1):
            match = re.search(r"(?:^|\s)(#.*)$", line)
            if match is not None:
                comments[number] = (match.start(1), match.group(1))
        return comments
