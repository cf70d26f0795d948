"""Compares two JSON-lines reports of `canary scan` / `canary report merge`: the same findings
(canary location, encoding, source, line, column), the same sources and the same verdict and leak
count. Exits 1 and says what differs.

    python3 compare.py EXPECTED.jsonl ACTUAL.jsonl
"""

import json
import sys


def read(path):
    leaks, sources, summary = [], [], None
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            item = json.loads(line)
            if item["type"] == "leak":
                leaks.append(
                    (item["canary"]["location"], item["encoding"], item["source"], item["line"], item["column"])
                )
            elif item["type"] == "source":
                sources.append((item["name"], item["bytes"], item["status"], item["leakCount"]))
            elif item["type"] == "summary":
                summary = item
    if summary is None:
        sys.exit(f"{path}: no summary line")
    return sorted(leaks), sorted(sources), summary


def main() -> None:
    expected, actual = read(sys.argv[1]), read(sys.argv[2])
    problems = []
    if expected[0] != actual[0]:
        problems.append(f"findings differ: {len(expected[0])} expected, {len(actual[0])} merged")
    if expected[1] != actual[1]:
        problems.append(f"sources differ: {set(expected[1]) ^ set(actual[1])}")
    for key in ("verdict", "leakCount", "listedLeaks", "sourceCount", "bytes"):
        if expected[2][key] != actual[2][key]:
            problems.append(f"{key}: {expected[2][key]} expected, {actual[2][key]} merged")
    if problems:
        sys.exit(f"{sys.argv[2]} differs from {sys.argv[1]}: " + "; ".join(problems))
    print(
        f"{sys.argv[2]}: same {len(actual[0])} findings, {len(actual[1])} sources, verdict {actual[2]['verdict']}"
    )


if __name__ == "__main__":
    main()
