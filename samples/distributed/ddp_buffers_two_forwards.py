"""A GAN discriminator with BatchNorm, wrapped in DDP (broadcast_buffers=True, the default), is
called on the real and on the fake batch before one backward. At the second forward DDP
broadcasts rank 0's buffers into every rank's running_mean/running_var in place, and the first
forward's BatchNorm saved those buffers for its backward (pytorch/pytorch#22095).
Run: torchrun --standalone --nproc_per_node 2 --no-python gradscope run ddp_buffers_two_forwards.py"""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
torch.manual_seed(0)
netD = DDP(nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.LeakyReLU(0.2), nn.Linear(16, 1)))
optimizerD = torch.optim.SGD(netD.parameters(), lr=0.01)
real, fake = torch.randn(4, 8), torch.randn(4, 8)
errD_real = netD(real).mean()
errD_fake = netD(fake).mean()
optimizerD.zero_grad()
(errD_fake - errD_real).backward()
optimizerD.step()
print("discriminator step done")
dist.destroy_process_group()
