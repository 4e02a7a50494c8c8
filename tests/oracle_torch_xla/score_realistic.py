"""Recall and precision of the TX rules on the realistic torch_xla cases, per family.

Usage: ``python tests/oracle_torch_xla/score_realistic.py [-v]`` from the checkout, with the
project's venv (the analyzer only; torch_xla is not needed: the cases' labels are checked by the
oracle tier). A marker ``(line, code)`` the analyzer reports is a hit, one it does not report a
miss, and a finding of a TX code on a line without that marker a false alarm. ``-v`` lists the
misses and false alarms.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The oracle tier's module, and the repository root it imports the fork server from.
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from test_oracle_torch_xla import REALISTIC_CASES

FAMILIES: dict[str, tuple[str, ...]] = {
    "host syncs": ("TX101",),
    "missing sync": ("TX102",),
    "Python control flow": ("TX103",),
    "dynamic shapes": ("TX201",),
    "shape churn": ("TX202",),
    "special scalars": ("TX203",),
    "SPMD": ("TX301", "TX302", "TX303", "TX304"),
}


def main(verbose: bool) -> int:
    from xlalens.analyzers.api import check_source
    from xlalens.analyzers.core.settings import Settings

    hits: dict[str, int] = dict.fromkeys(FAMILIES, 0)
    markers: dict[str, int] = dict.fromkeys(FAMILIES, 0)
    findings: dict[str, int] = dict.fromkeys(FAMILIES, 0)
    family_of = {code: family for family, codes in FAMILIES.items() for code in codes}
    notes = []
    for case in REALISTIC_CASES:
        settings = Settings(device_count=case.devices)
        diagnostics = check_source(case.path.read_text(encoding="utf-8"), str(case.path), settings)
        got = {(d.line, d.code) for d in diagnostics if d.code in family_of}
        expected = {m for m in case.markers if m[1] in family_of}
        for line, code in expected:
            markers[family_of[code]] += 1
            if (line, code) in got:
                hits[family_of[code]] += 1
            else:
                notes.append(f"miss        {case.case_id}:{line} {code}")
        for line, code in got:
            findings[family_of[code]] += 1
            if (line, code) not in expected:
                notes.append(f"false alarm {case.case_id}:{line} {code}")
    print(f"{'family':22s} {'recall':>14s} {'precision':>14s}")
    for family in FAMILIES:
        recall = f"{hits[family]}/{markers[family]}"
        precision = f"{hits[family]}/{findings[family]}" if findings[family] else "-"
        print(f"{family:22s} {recall:>14s} {precision:>14s}")
    total_hits, total_markers, total_findings = sum(hits.values()), sum(markers.values()), sum(findings.values())
    print(f"{'all':22s} {f'{total_hits}/{total_markers}':>14s} {f'{total_hits}/{total_findings}':>14s}")
    if verbose:
        print("\n".join(sorted(notes)))
    return 0


if __name__ == "__main__":
    sys.exit(main("-v" in sys.argv[1:]))
