"""Start-up cost: `gradscope --help`, and `gradscope run` vs `python` (a benchmark, not a test).

    python benchmarks/startup.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def seconds(command: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty.py")
        with open(empty, "w") as handle:
            handle.write("pass\n")
        uses_torch = os.path.join(tmp, "uses_torch.py")
        with open(uses_torch, "w") as handle:
            handle.write("import torch\nx = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\n")
        gradscope = [sys.executable, "-m", "gradscope"]
        rows = [
            ("gradscope --help", seconds([*gradscope, "--help"], args.repeat), None),
            ("empty script", seconds([*gradscope, "run", empty], args.repeat), seconds([sys.executable, empty], args.repeat)),
            ("import torch + one backward", seconds([*gradscope, "run", uses_torch], args.repeat),
             seconds([sys.executable, uses_torch], args.repeat)),
        ]
    print(f"{'':<30}{'gradscope s':>12}{'python s':>10}{'added s':>9}")
    for name, ours, plain in rows:
        extra = f"{ours - plain:>9.2f}" if plain is not None else ""
        print(f"{name:<30}{ours:>12.2f}{(f'{plain:.2f}' if plain is not None else '-'):>10}{extra}")


if __name__ == "__main__":
    main()
