"""What gradscope costs per rank under torchrun: N gloo ranks on this machine, plain vs
`gradscope run`, interleaved (a benchmark, not a test).

Each rank runs benchmarks/scripts/ddp_steps.py (a small DDP MLP) and prints its time per step
and its peak resident memory; this reports the median over ranks of each, per round, and the
ratios. With more ranks than cores the ranks share the CPU: compare the ratio, not the times.

    python benchmarks/distributed_cost.py --ranks 8 --rounds 3 --steps 50
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scripts", "ddp_steps.py")


def run(ranks: int, steps: int, recorded: bool) -> list[dict]:
    program = [sys.executable, "-m", "gradscope", "run", SCRIPT] if recorded else [sys.executable, SCRIPT]
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", str(ranks),
               "--no-python", *program, str(steps)]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    with tempfile.TemporaryDirectory() as cwd:
        proc = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env, timeout=900)
    if proc.returncode != 0:
        raise SystemExit(f"the run failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    # (the ranks share one pipe: a line may hold two ranks' records)
    return [json.loads(record) for record in re.findall(r"\{[^{}]*\}", proc.stdout)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ranks", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=50)
    options = parser.parse_args()
    results = {"plain": [], "gradscope": []}
    for index in range(options.rounds):
        for mode in (("plain", "gradscope") if index % 2 == 0 else ("gradscope", "plain")):
            rows = run(options.ranks, options.steps, mode == "gradscope")
            results[mode].append({"ms": statistics.median(r["ms_per_step"] for r in rows),
                                  "rss": statistics.median(r["peak_rss_mib"] for r in rows), "ranks": len(rows)})
            print(f"round {index + 1} {mode:9s} {results[mode][-1]['ms']:8.1f} ms/step "
                  f"{results[mode][-1]['rss']:7.1f} MiB peak RSS (median over {len(rows)} ranks)", flush=True)
    plain_ms = statistics.median(r["ms"] for r in results["plain"])
    recorded_ms = statistics.median(r["ms"] for r in results["gradscope"])
    plain_rss = statistics.median(r["rss"] for r in results["plain"])
    recorded_rss = statistics.median(r["rss"] for r in results["gradscope"])
    print(f"{options.ranks} ranks, {os.cpu_count()} cores: time per step {plain_ms:.1f} -> {recorded_ms:.1f} ms "
          f"({recorded_ms / plain_ms:.2f}x); peak RSS per rank {plain_rss:.0f} -> {recorded_rss:.0f} MiB "
          f"(+{recorded_rss - plain_rss:.0f} MiB)")


if __name__ == "__main__":
    main()
