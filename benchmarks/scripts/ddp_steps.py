"""One rank of a small DDP training run (gloo, CPU) for benchmarks/distributed_cost.py: a
3-layer MLP with BatchNorm, STEPS optimizer steps; prints this rank's step time and peak RSS."""
import json
import os
import resource
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 50

dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(64, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                          nn.Linear(256, 10)))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x, y = torch.randn(32, 64), torch.randint(0, 10, (32,))
for step in range(STEPS + 5):
    if step == 5:  # warm-up done
        dist.barrier()
        start = time.perf_counter()
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
dist.barrier()
seconds = time.perf_counter() - start
print(json.dumps({"rank": dist.get_rank(), "ms_per_step": 1000 * seconds / STEPS,
                  "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}), flush=True)
dist.destroy_process_group()
