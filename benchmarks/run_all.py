"""Every benchmark table in one command (this is what docs/performance.md shows).

    python benchmarks/run_all.py [--quick]

Runs, in order: recording overhead (benchmarks/overhead.py), memory over 1,000 steps
(benchmarks/memory.py), start-up (benchmarks/startup.py) and graph drawing at 1k/10k/50k nodes
(benchmarks/graph_sizes.py). Takes about 10 minutes on a 2-core machine (--quick: about 3).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer rounds and smaller graphs")
    args = parser.parse_args()
    runs = [
        ("Recording overhead", ["overhead.py", "--rounds", "3" if args.quick else "7"]),
        ("Memory", ["memory.py", "--steps", "400" if args.quick else "1000"]),
        ("Start-up", ["startup.py", "--repeat", "3" if args.quick else "5"]),
        ("Graph drawing", ["graph_sizes.py", "--sizes", *(["1000", "10000"] if args.quick else ["1000", "10000", "50000"])]),
    ]
    for title, command in runs:
        print(f"\n## {title}\n", flush=True)
        subprocess.run([sys.executable, os.path.join(HERE, command[0]), *command[1:]], check=True)


if __name__ == "__main__":
    main()
