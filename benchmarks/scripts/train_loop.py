"""A 1,000-step training loop that reports its resident memory (used by benchmarks/memory.py).

    python benchmarks/scripts/train_loop.py STEPS
Prints "rss STEP KIB" every 100 steps and "peak KIB" at the end.
"""
import resource
import sys

import torch
import torch.nn as nn


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


torch.set_num_threads(1)
torch.manual_seed(0)
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(1, steps + 1):
    x, y = torch.randn(32, 64), torch.randint(0, 10, (32,))
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    if step % 100 == 0:
        print("rss", step, rss_kib(), flush=True)
print("peak", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
