"""DDP with a branch that skips the auxiliary head on odd steps: its parameters get no gradient,
so DDP's reducer never finishes and the next forward raises "Expected to have finished
reduction in the prior iteration ...".
Run: torchrun --nproc_per_node 2 --no-python gradscope run ddp_unused_parameter.py"""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 16)
        self.head = nn.Linear(16, 1)
        self.aux_head = nn.Linear(16, 1)

    def forward(self, x, with_aux):
        h = torch.relu(self.body(x))
        out = self.head(h)
        if with_aux:
            out = out + 0.1 * self.aux_head(h)
        return out


dist.init_process_group("gloo")
torch.manual_seed(0)
model = DDP(Net())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x, y = torch.randn(4, 8), torch.randn(4, 1)
    loss = nn.functional.mse_loss(model(x, with_aux=step % 2 == 0), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
dist.destroy_process_group()
