"""Reading oracle case files: the expectation header and the ``# error:`` markers.

A case file starts with one header line:

* ``# oracle: raises <ClassName>: <start of str(exception)>``
* ``# oracle: stdout <substring>``
* ``# oracle: runs``

and marks every line the analyzer must flag with a trailing
``# error: JX101`` (several codes separated by commas).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

CASES_DIR = Path(__file__).parent / "cases"
CODES: tuple[str, ...] = (
    "JX101",
    "JX102",
    "JX103",
    "JX104",
    "JX105",
    "JX106",
    "JX107",
    "JX108",
    "JX201",
    "JX202",
    "JX203",
    "JX204",
    "JX205",
    "JX206",
    "JX301",
    "JX302",
    "JX303",
    "JX304",
    "JX305",
    "JX306",
    "JX307",
    "JX401",
    "JX402",
    "JX403",
    "JX404",
    "JX405",
    "JX406",
    "JX407",
    "JX409",
    "JX410",
    "JX501",
    "JX502",
    "JX503",
    "JX504",
    "JX505",
    "JX506",
    "JX507",
    "JX508",
    "JX601",
    "JX602",
    "JX603",
    "JX605",
    "JX606",
    "JX607",
    "JX701",
    "JX702",
    "JX703",
    "JX704",
    "JX705",
    "JX706",
    "JX707",
    "JX708",
    "JX709",
    "JX710",
    "JX711",
    "JX712",
    "JX713",
    "JX714",
    "JX715",
    "JX716",
    "JX717",
    "JX718",
    "JX801",
    "JX802",
    "JX803",
    "JX804",
)
RESULT_PREFIX = "XLALENS-ORACLE "

_HEADER = re.compile(r"#\s*oracle:\s*(raises|stdout|runs)\b\s*(.*)$")
_MARKER = re.compile(r"#\s*error:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)")


@dataclass(frozen=True, slots=True)
class Expectation:
    """What running a case under real JAX must do."""

    kind: Literal["raises", "stdout", "runs"]
    exc_class: str = ""
    text: str = ""


@dataclass(frozen=True, slots=True)
class Case:
    """One case file: where it is, what it expects, and its markers."""

    path: Path
    code: str
    name: str
    expectation: Expectation
    markers: frozenset[tuple[int, str]]

    @property
    def case_id(self) -> str:
        """A readable id such as ``JX101/pos_if_compare``."""
        return f"{self.code}/{self.name}"

    @property
    def positive(self) -> bool:
        return self.name.startswith("pos_")


def parse_header(first_line: str) -> Expectation:
    """Parse the ``# oracle: ...`` header; raise ValueError if it is malformed."""
    match = _HEADER.match(first_line.strip())
    if match is None:
        raise ValueError(f"not an oracle header: {first_line!r}")
    kind, rest = match.group(1), match.group(2).strip()
    if kind == "runs":
        if rest:
            raise ValueError(f"'runs' takes no argument: {first_line!r}")
        return Expectation("runs")
    if kind == "stdout":
        if not rest:
            raise ValueError(f"'stdout' needs a substring: {first_line!r}")
        return Expectation("stdout", text=rest)
    exc_class, sep, message = rest.partition(":")
    if not sep or not exc_class.strip().isidentifier():
        raise ValueError(f"'raises' needs 'ClassName: message': {first_line!r}")
    return Expectation("raises", exc_class=exc_class.strip(), text=message.strip())


def parse_markers(text: str) -> frozenset[tuple[int, str]]:
    """Return ``{(line, code)}`` for every ``# error: CODE[, CODE]`` comment (1-based lines)."""
    found: set[tuple[int, str]] = set()
    for lineno, line in enumerate(text.splitlines(), start=1):
        match = _MARKER.search(line)
        if match is None:
            continue
        for code in match.group(1).split(","):
            found.add((lineno, code.strip()))
    return frozenset(found)


def load_case(path: Path) -> Case:
    """Read one case file."""
    text = path.read_text(encoding="utf-8")
    first_line = text.split("\n", 1)[0]
    return Case(
        path=path,
        code=path.parent.name,
        name=path.stem,
        expectation=parse_header(first_line),
        markers=parse_markers(text),
    )


def all_cases(root: Path = CASES_DIR) -> list[Case]:
    """Every ``<CODE>/{pos,neg}_*.py`` under ``root``, sorted by id."""
    paths = sorted(p for p in root.glob("*/*.py") if p.stem.startswith(("pos_", "neg_")))
    return [load_case(p) for p in paths]
