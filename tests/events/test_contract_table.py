"""docs/architecture.md's event-contract table says what events/details.py defines (#41)."""

import dataclasses
import re
from pathlib import Path

from makhos.events.details import EventKind, detail_type

DOC = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
ROW = re.compile(r"^\| `(\w+)` \| (.+?) \|(.*)\|$", re.M)


def table() -> dict[str, tuple[str, str]]:
    section = DOC.read_text(encoding="utf-8").split("### The event contract", 1)[1]
    rows = ROW.findall(section.split("Extending it", 1)[0])
    return {kind: (detail, enums.strip()) for kind, detail, enums in rows}


def test_the_table_has_a_row_for_every_kind_and_no_other():
    assert sorted(table()) == sorted(kind.value for kind in EventKind)


def test_each_row_names_its_detail_class_with_every_field_in_order():
    for kind, (detail, enums) in table().items():
        if kind == EventKind.REFEREE.value:  # the decision itself: events.decisions
            continue
        cls = detail_type(EventKind(kind))
        fields = [f.name for f in dataclasses.fields(cls)]
        assert detail == f"`{cls.__name__}({', '.join(fields)})`", kind
        types = " ".join(str(f.type) for f in dataclasses.fields(cls))
        for enum in re.findall(r"`([\w.]+)`", enums):
            assert enum.rsplit(".", 1)[-1] in types, (kind, enum)
