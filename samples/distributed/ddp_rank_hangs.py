"""A rank that hangs: rank 1 gets stuck before its second step (here a sleep stands for a stuck
data loader or a rank waiting on a file); rank 0 waits for it inside DDP's forward. Nothing
fails until the job is stopped from outside (a scheduler's time limit sends SIGTERM to torchrun,
which sends SIGTERM to every rank). Each rank's report then says where SIGTERM found it, and the
merged report shows the rank that was somewhere else.
Run: torchrun --nproc_per_node 2 --no-python gradscope run --json report.json ddp_rank_hangs.py
     after "step 1", from another terminal: kill <torchrun's pid>
     then: gradscope report report.rank*.json"""
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
model = DDP(nn.Linear(8, 1))
for step in range(3):
    print(f"rank {rank}: step {step}", flush=True)
    if rank == 1 and step == 1:
        time.sleep(600)  # stuck
    loss = model(torch.randn(4, 8)).pow(2).mean()
    loss.backward()
dist.destroy_process_group()
