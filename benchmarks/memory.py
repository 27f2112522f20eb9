"""Memory over a long training loop: plain Python vs `gradscope run` (a benchmark, not a test).

Runs benchmarks/scripts/train_loop.py (1,000 steps) both ways in subprocesses and reports
resident memory after warm-up and at the end (flat means no growth), peak RSS, and the size of
the saved trace.

    python benchmarks/memory.py [--steps 1000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scripts", "train_loop.py")


def run(command: list[str]) -> dict:
    proc = subprocess.run(command, capture_output=True, text=True, check=True)
    rss = [(int(step), int(kib)) for _, step, kib in (l.split() for l in proc.stdout.splitlines() if l.startswith("rss"))]
    peak = next(int(l.split()[1]) for l in proc.stdout.splitlines() if l.startswith("peak"))
    return {"rss": rss, "peak": peak}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "loop.trace.json.gz")
        plain = run([sys.executable, SCRIPT, str(args.steps)])
        traced = run([sys.executable, "-m", "gradscope", "run", "--trace", trace, SCRIPT, str(args.steps)])
        trace_kib = os.path.getsize(trace) / 1024
    print(f"{args.steps}-step training loop (MLP 64-256-256-10, Adam), resident memory in MiB")
    print(f"{'':<11}{'step 200':>10}{'last step':>11}{'growth':>9}{'peak':>8}")
    for name, result in (("plain", plain), ("gradscope", traced)):
        after_warmup = dict(result["rss"])[200] / 1024
        last = result["rss"][-1][1] / 1024
        print(f"{name:<11}{after_warmup:>10.1f}{last:>11.1f}{last - after_warmup:>+9.1f}{result['peak'] / 1024:>8.1f}")
    print(f"peak RSS ratio {traced['peak'] / plain['peak']:.2f}; saved trace {trace_kib:.0f} KiB in all "
          f"({trace_kib * 1024 / args.steps:.0f} bytes per step; it keeps the last backward calls' graphs)")


if __name__ == "__main__":
    main()
