"""DDP on data split unevenly across ranks: rank 1 has 2 batches, rank 0 has 3. Rank 1 finishes
its loop and leaves; rank 0's third backward waits in the gradient all-reduce for a rank that is
gone (with NCCL it would hang until the timeout; gloo sees the closed connection). No rank raised
an error of its own: the merged report shows the ranks made different numbers of backward calls.
Run: torchrun --nproc_per_node 2 --no-python gradscope run --json report.json ddp_uneven_batches.py
     gradscope report report.rank*.json"""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
model = DDP(nn.Linear(8, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
samples = torch.randn(10 if rank == 0 else 8, 8)  # a split by rank that is not even
for batch in samples.split(4):  # rank 0: 3 batches (the last of 2 rows), rank 1: 2 batches
    loss = model(batch).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"rank {rank}: done")
dist.destroy_process_group()
