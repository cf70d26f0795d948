#!/usr/bin/env python3
"""Lists every use of a Swift Testing symbol newer than the package's supported floor that is not
guarded by `#if compiler(>=X)` (or `#if swift(>=X)`), and exits 1 if there is any.

The floor is the `swift-tools-version` of Package.swift (6.2: Xcode 26.0 and later). The symbols
newer than it come from swift-testing's own availability markers, the DocC lines
`@Available(Swift, introduced: X)` in its sources: every public symbol marked above 6.2 in the
release/6.3 branch (tag swift-6.3-RELEASE) and on main (6.4, unreleased when this was written).
Only Swift files that import Testing are checked, so the same names in files that do not see
Swift Testing are not reported.

A `.filePath` member is ambiguous (the project's own types have one too). A line whose member is
not Swift Testing's says so with a trailing `// api-floor: <why>` comment, and is then skipped.

Usage: CI/check-api-floor.py [ROOT]   (ROOT defaults to the repository holding this script)
Needs no network and no Swift toolchain.
"""

import os
import re
import sys

# (pattern, Swift version that introduced it, what it is). Source: swift-testing sources,
# `@Available(Swift, introduced: ...)` markers, tags swift-6.2-RELEASE / swift-6.3-RELEASE / main.
NEWER_THAN_FLOOR = [
    (r"(?<!#)\.filePath\b(?!\s*:)", (6, 3), "SourceLocation.filePath (6.2 spells it _filePath)"),
    (r"\bIssue\.Severity\b|\bSeverity\.(warning|error)\b", (6, 3), "Issue.Severity"),
    (r"\bseverity\s*:", (6, 3), "Issue.record(_:severity:sourceLocation:)"),
    (r"\.severity\b", (6, 3), "Issue.severity"),
    (r"\.isFailure\b", (6, 3), "Issue.isFailure"),
    (r"\bTest\.cancel\s*\(", (6, 3), "Test.cancel(_:sourceLocation:)"),
    (r"\bAttachableAsImage\b", (6, 3), "AttachableAsImage"),
    (r"\bAttachableImageFormat\b|\bimageFormat\b", (6, 3), "AttachableImageFormat / Attachment.imageFormat"),
    (r"\bCustomTestReflectable\b|\bcustomTestMirror\b", (6, 4), "CustomTestReflectable"),
    (r"\breflectingForTest\s*:", (6, 4), "Mirror(reflectingForTest:)"),
]

# The table lists what came after this version; a lower floor needs more entries.
TABLE_BASE = (6, 2)

WAIVER = re.compile(r"//\s*api-floor:")
IMPORTS_TESTING = re.compile(r"^\s*(@testable\s+|@_spi\([^)]*\)\s+)?import\s+Testing\b", re.M)
VERSION_CHECK = re.compile(r"\b(compiler|swift)\s*\(\s*>=\s*(\d+)(?:\.(\d+))?")


def floor_of(root):
    """The (major, minor) of Package.swift's swift-tools-version."""
    with open(os.path.join(root, "Package.swift"), encoding="utf-8") as handle:
        first = handle.readline()
    match = re.search(r"swift-tools-version:\s*(\d+)\.(\d+)", first)
    if not match:
        sys.exit(f"check-api-floor: no swift-tools-version in {root}/Package.swift: {first.strip()}")
    return int(match.group(1)), int(match.group(2))


def guaranteed_version(condition):
    """The Swift version an `#if` condition guarantees (a `compiler(>=X)`/`swift(>=X)` term that
    is not negated and not part of an `||`), or None."""
    if "||" in condition or re.search(r"!\s*\(?\s*(compiler|swift)\b", condition):
        return None
    best = None
    for match in VERSION_CHECK.finditer(condition):
        version = (int(match.group(2)), int(match.group(3) or 0))
        best = version if best is None or version > best else best
    return best


def strip_comments_and_strings(line):
    """The line without `//` comments and without the contents of simple string literals."""
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return line.split("//", 1)[0]


def check_file(path, floor):
    """Yields (line number, symbol, version) for each unguarded use in one file."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    if not IMPORTS_TESTING.search(text):
        return
    # Each open #if holds the versions its branches guarantee: the active branch's, or None.
    stack = []
    in_block_comment = False
    in_multiline_string = False
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw
        # Text inside a multi-line string literal is data, not code.
        if raw.count('"""') % 2 == 1:
            in_multiline_string = not in_multiline_string
            if not in_multiline_string:
                line = raw.split('"""', 1)[1]
            else:
                line = raw.split('"""', 1)[0]
        elif in_multiline_string:
            continue
        if in_block_comment:
            if "*/" not in line:
                continue
            line = line.split("*/", 1)[1]
            in_block_comment = False
        if "/*" in line and "*/" not in line.split("/*", 1)[1]:
            line = line.split("/*", 1)[0]
            in_block_comment = True
        stripped = line.strip()
        directive = re.match(r"#(if|elseif|else|endif)\b(.*)", stripped)
        if directive:
            kind, condition = directive.group(1), directive.group(2)
            if kind == "if":
                stack.append(guaranteed_version(condition))
            elif kind == "elseif" and stack:
                stack[-1] = guaranteed_version(condition)
            elif kind == "else" and stack:
                stack[-1] = None
            elif kind == "endif" and stack:
                stack.pop()
            continue
        if WAIVER.search(raw):
            continue
        code = strip_comments_and_strings(line)
        if not code.strip() or code.lstrip().startswith("///"):
            continue
        guaranteed = max((v for v in stack if v is not None), default=None)
        for pattern, version, name in NEWER_THAN_FLOOR:
            if version <= floor:
                continue
            if guaranteed is not None and guaranteed >= version:
                continue
            if re.search(pattern, code):
                yield number, name, version


def swift_files(root):
    for top in ("Sources", "Tests", "Templates"):
        for directory, subdirectories, files in os.walk(os.path.join(root, top)):
            subdirectories.sort()
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(directory, name)


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    floor = floor_of(root)
    if floor < TABLE_BASE:
        print(f"check-api-floor: the floor {floor[0]}.{floor[1]} is below {TABLE_BASE[0]}.{TABLE_BASE[1]}, the "
              "version the symbol table starts from: extend NEWER_THAN_FLOOR before lowering the floor")
        return 2
    problems = []
    checked = 0
    for path in swift_files(root):
        uses = list(check_file(path, floor))
        with open(path, encoding="utf-8", errors="replace") as handle:
            checked += 1 if IMPORTS_TESTING.search(handle.read()) else 0
        for number, name, version in uses:
            relative = os.path.relpath(path, root)
            problems.append(
                f"{relative}:{number}: {name} needs Swift {version[0]}.{version[1]}, above the floor "
                f"{floor[0]}.{floor[1]}: guard it with #if compiler(>={version[0]}.{version[1]})")
    for problem in problems:
        print(problem)
    floor_text = f"{floor[0]}.{floor[1]}"
    if problems:
        print(f"check-api-floor: {len(problems)} unguarded use(s) of Swift Testing API newer than "
              f"Swift {floor_text} in {checked} files importing Testing")
        return 1
    if checked == 0:
        print(f"check-api-floor: no Swift file under {root} imports Testing: nothing was checked")
        return 2
    print(f"check-api-floor: {checked} files importing Testing use no Swift Testing API newer than "
          f"Swift {floor_text} outside #if compiler guards")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
