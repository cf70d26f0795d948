#!/usr/bin/env python3
"""Hyperscan baseline for `canary-bench scan`.

Usage: hyperscan_scan.py PATTERNS CORPUS [REPEATS] [THREADS]

PATTERNS holds one literal per line, hex-encoded (so any byte can be part of a literal).
Every literal is compiled as a regular expression of escaped bytes (`\\xHH` each: the Python
binding passes patterns as C strings, so the pure-literal API cannot take the NUL bytes of UTF-16
literals; Hyperscan recognises these as literals and uses its literal matchers), no flags; the
corpus is read into memory once, and it is scanned in block mode REPEATS times (default 3), counting matches.
Prints one JSON object: literal count, compile seconds, best wall and CPU seconds of a scan,
matches, and the corpus size in bytes. Exit status 3 when the hyperscan module is missing.

With THREADS (default 1) above 1, the corpus is cut into that many parts, each reaching the
longest literal minus one byte into the next, scanned at once on as many threads, each with its
own scratch space (the binding releases the GIL while Hyperscan scans); a match is counted by
the part its end lies in.
"""
import threading
import json
import sys
import time

try:
    import hyperscan
except ImportError:
    print(json.dumps({"error": "python module 'hyperscan' not installed (pip install hyperscan)"}))
    sys.exit(3)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    patterns_path, corpus_path = sys.argv[1], sys.argv[2]
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    with open(patterns_path) as handle:
        literals = [bytes.fromhex(line.strip()) for line in handle if line.strip()]
    with open(corpus_path, "rb") as handle:
        corpus = handle.read()
    started = time.perf_counter()
    database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    expressions = ["".join("\\x%02x" % byte for byte in literal).encode() for literal in literals]
    database.compile(expressions=expressions, ids=list(range(len(literals))), elements=len(literals), flags=0)
    compile_seconds = time.perf_counter() - started
    best_wall = best_cpu = float("inf")
    matches = 0
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    if threads > 1:
        reach = max((len(literal) for literal in literals), default=1) - 1
        size = len(corpus)
        bounds = [(size * part // threads, size * (part + 1) // threads) for part in range(threads)]
        scratches = [hyperscan.Scratch(database) for _ in range(threads)]
        # Cut before the clock starts: slicing copies.
        parts = [corpus[low : min(size, high + reach)] for low, high in bounds]
        for _ in range(repeats):
            counts = [0] * threads

            def scan_part(part):
                low, high = bounds[part]
                view = parts[part]
                limit = high - low

                def on_match(identifier, start, end, flags, context):
                    if end <= limit:
                        counts[part] += 1

                database.scan(view, match_event_handler=on_match, scratch=scratches[part])

            wall = time.perf_counter()
            cpu = time.process_time()
            workers = [threading.Thread(target=scan_part, args=(part,)) for part in range(threads)]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join()
            best_cpu = min(best_cpu, time.process_time() - cpu)
            best_wall = min(best_wall, time.perf_counter() - wall)
            matches = sum(counts)
        repeats = 0
    for _ in range(repeats):
        found = [0]

        def on_match(identifier, start, end, flags, context):
            found[0] += 1

        wall = time.perf_counter()
        cpu = time.process_time()
        database.scan(corpus, match_event_handler=on_match)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
        matches = found[0]
    print(
        json.dumps(
            {
                "literals": len(literals),
                "compile_seconds": compile_seconds,
                "wall_seconds": best_wall,
                "cpu_seconds": best_cpu,
                "matches": matches,
                "bytes": len(corpus),
            }
        )
    )


if __name__ == "__main__":
    main()
