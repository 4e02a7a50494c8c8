"""``junit``: JUnit XML, one test suite per file and one failing test case per diagnostic.

CI systems that show test reports (GitLab, Jenkins, Azure) then list findings without a plugin.
"""

from __future__ import annotations

import itertools
from typing import TextIO
from xml.etree import ElementTree

from xlalens.analyzers.core.diagnostics import Diagnostic
from xlalens.analyzers.output.report import Report


def render(report: Report, out: TextIO) -> None:
    """Write ``report`` as JUnit XML."""
    diagnostics = report.sorted_diagnostics()
    root = ElementTree.Element(
        "testsuites", name="xlalens", tests=str(len(diagnostics)), failures=str(len(diagnostics))
    )
    for path, group in itertools.groupby(diagnostics, key=lambda d: d.path):
        items: list[Diagnostic] = list(group)
        shown = report.display_path(path)
        suite = ElementTree.SubElement(root, "testsuite", name=shown, tests=str(len(items)), failures=str(len(items)))
        for d in items:
            case = ElementTree.SubElement(
                suite,
                "testcase",
                name=f"{d.code} at {shown}:{d.line}:{d.column + 1}",
                classname=d.code,
                file=shown,
                line=str(d.line),
            )
            failure = ElementTree.SubElement(case, "failure", message=d.message, type=d.code)
            failure.text = f"{shown}:{d.line}:{d.column + 1}: {d.code} {d.message}"
    ElementTree.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ElementTree.tostring(root, encoding="unicode") + "\n")
