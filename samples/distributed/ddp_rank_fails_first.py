"""Rank 1 gets a bad batch and raises in its forward; rank 0 is already in its backward, waiting
in DDP's gradient all-reduce for rank 1, and fails there with gloo's "Connection closed by peer".
Rank 0's error is only the echo of rank 1's: gradscope says so on rank 0, and the merged report
says which rank failed first.
Run: torchrun --nproc_per_node 2 --no-python gradscope run --json report.json ddp_rank_fails_first.py
     gradscope report report.rank*.json"""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
model = DDP(nn.Linear(8, 1))
for step in range(3):
    x = torch.randn(4, 8)
    if rank == 1 and step == 1:
        x = x[:, :4]  # a batch with the wrong number of features, on rank 1 only
    loss = model(x).pow(2).mean()
    loss.backward()
dist.destroy_process_group()
