#!/usr/bin/env python3
"""Checks that the DocC catalog lists the public API deliberately.

Every public top-level type of CanaryTrap, CanaryTrapScanner and CanaryTrapServer (read from the symbol graphs in
GRAPHS_DIR) must appear exactly once in a topic group of CanaryTrap.md, and every ``Symbol`` link
there must name one. A new public type that nobody placed in a topic fails CI, so growing the API
is a decision, not an accident.

usage: CI/check-docc-topics.py GRAPHS_DIR [CATALOG_PAGE]
"""
import json
import pathlib
import re
import sys

TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}
MODULES = ("CanaryTrap", "CanaryTrapScanner", "CanaryTrapServer")


def public_types(graphs: pathlib.Path) -> set[str]:
    names: set[str] = set()
    for module in MODULES:
        path = graphs / f"{module}.symbols.json"
        if not path.exists():
            sys.exit(f"check-docc-topics: no symbol graph {path}")
        for symbol in json.loads(path.read_text())["symbols"]:
            if symbol["kind"]["identifier"] in TYPE_KINDS and len(symbol["pathComponents"]) == 1:
                if symbol.get("accessLevel") in ("public", "open"):
                    names.add(symbol["pathComponents"][0])
    return names


def listed_types(page: pathlib.Path) -> list[str]:
    text = page.read_text()
    topics = text.split("\n## Topics", 1)
    if len(topics) != 2:
        sys.exit(f"check-docc-topics: {page} has no '## Topics' section")
    return re.findall(r"^- ``([A-Za-z_][A-Za-z0-9_]*)``\s*$", topics[1], flags=re.MULTILINE)


def main() -> int:
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    graphs = pathlib.Path(sys.argv[1])
    page = pathlib.Path(sys.argv[2] if len(sys.argv) == 3 else "Sources/CanaryTrap/Documentation.docc/CanaryTrap.md")
    public = public_types(graphs)
    listed = listed_types(page)
    problems = []
    for name in sorted(public - set(listed)):
        problems.append(f"public type {name} is in no topic group of {page.name}: list it, or make it `package`")
    for name in sorted({n for n in listed if listed.count(n) > 1}):
        problems.append(f"{name} is listed {listed.count(name)} times in {page.name}")
    for name in sorted(set(listed) - public):
        problems.append(f"{page.name} lists {name}, which is not a public type of {' or '.join(MODULES)}")
    for problem in problems:
        print(f"check-docc-topics: {problem}")
    print(f"check-docc-topics: {len(public)} public types, {len(set(listed))} listed, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
