"""Scans files as shards under Apache Spark: each partition of the file list is piped, as paths,
to `canary scan --files-from - -f jsonl`, and Spark writes each partition's report as one file.

    python3 spark_scan.py CANARY MANIFEST LIST OUTDIR PARTITIONS [MASTER]

LIST holds one path a line; OUTDIR must not exist. Each partition's report becomes
OUTDIR/part-NNNNN.jsonl, ready for `canary report merge OUTDIR --expect PARTITIONS`. MASTER is
Spark's master URL (default local[2]); on a cluster, the paths must be readable on every worker and
`canary` installed there.
"""

import os
import shlex
import sys

from pyspark.sql import SparkSession


def main() -> None:
    canary, manifest, listing, outdir, partitions = sys.argv[1:6]
    master = sys.argv[6] if len(sys.argv) > 6 else "local[2]"
    with open(listing, encoding="utf-8") as handle:
        paths = [line.rstrip("\n") for line in handle if line.strip()]
    spark = (
        SparkSession.builder.master(master)
        .appName("canary-shards")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    try:
        command = [canary, "scan", "--manifest", manifest, "--format", "jsonl", "--files-from", "-"]
        # Exit 1 (leaky) and 3 (inconclusive) are verdicts, not failures: each shard's report says
        # which, and the merge reads them. checkCode=False keeps Spark from failing the task.
        reports = spark.sparkContext.parallelize(paths, int(partitions)).pipe(
            " ".join(shlex.quote(part) for part in command), checkCode=False
        )
        reports.saveAsTextFile(outdir)
    finally:
        spark.stop()
    for name in os.listdir(outdir):
        if name.startswith("part-") and not name.endswith(".crc"):
            os.rename(os.path.join(outdir, name), os.path.join(outdir, name + ".jsonl"))


if __name__ == "__main__":
    main()
