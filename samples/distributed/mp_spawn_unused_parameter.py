"""DDP started by torch.multiprocessing.spawn (no launcher): the same skipped auxiliary head as
ddp_unused_parameter.py, so each worker's next forward raises "Expected to have finished
reduction in the prior iteration ...". gradscope records each spawned worker and names the
parameters and the branch in each one's report.
Run: gradscope run mp_spawn_unused_parameter.py"""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
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


def train(rank, world_size, port):
    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
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


if __name__ == "__main__":
    port = int(os.environ.get("SAMPLE_PORT", "29531"))
    mp.spawn(train, args=(2, port), nprocs=2)
