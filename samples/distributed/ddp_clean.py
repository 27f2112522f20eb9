"""A correct DistributedDataParallel loop (gloo, CPU): every parameter is used on every rank.
Run: torchrun --nproc_per_node 2 --no-python gradscope run ddp_clean.py"""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
torch.manual_seed(rank)
for step in range(3):
    x, y = torch.randn(4, 8), torch.randn(4, 1)
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"rank {rank}: weight sum {sum(p.sum().item() for p in model.parameters()):.6f}")
dist.destroy_process_group()
