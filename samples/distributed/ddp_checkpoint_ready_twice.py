"""DDP with find_unused_parameters=True around a model that uses reentrant activation
checkpointing: the checkpointed block's backward runs as a backward of its own, and DDP sees its
parameters' gradients arrive twice ("Expected to mark a variable ready only once").
Run: torchrun --standalone --nproc_per_node 2 --no-python gradscope run ddp_checkpoint_ready_twice.py"""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.checkpoint import checkpoint


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(8, 8), nn.ReLU())
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        h = checkpoint(self.block, x, use_reentrant=True)
        h = checkpoint(self.block, h, use_reentrant=True)
        return self.head(h)


dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(Net(), find_unused_parameters=True)
x = torch.randn(4, 8, requires_grad=True)
loss = model(x).sum()
loss.backward()
dist.destroy_process_group()
