"""Gradient accumulation with DDP where no_sync() wraps every micro-batch, the last one too: the
gradients are never all-reduced, so each rank steps with its own and the replicas drift apart.
Run: torchrun --standalone --nproc_per_node 2 --no-python gradscope run ddp_no_sync_every_step.py"""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
model = DDP(nn.Linear(8, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
torch.manual_seed(rank)
for step in range(2):
    optimizer.zero_grad()
    for micro in range(4):
        with model.no_sync():
            loss = model(torch.randn(4, 8)).pow(2).mean() / 4
            loss.backward()
    optimizer.step()
print(f"rank {rank}: weight sum {model.module.weight.sum().item():.6f}")
dist.destroy_process_group()
