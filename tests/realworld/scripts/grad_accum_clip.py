"""Gradient accumulation: each optimizer step sums the gradients of 4 micro-batches (loss
divided by the number of micro-batches), clips the total norm with
torch.nn.utils.clip_grad_norm_, steps, then advances a warm-up + cosine LR schedule."""

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(),
                      nn.Linear(64, 5))
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
total_steps, warmup = 5, 2
scheduler = torch.optim.lr_scheduler.LambdaLR(
    optimizer, lambda s: (s + 1) / warmup if s < warmup else 0.5 * (1 + math.cos(math.pi * (s - warmup) / total_steps)))

accumulation = 4
data = torch.randn(total_steps * accumulation, 8, 20)
targets = torch.randint(0, 5, (total_steps * accumulation, 8))

model.train()
optimizer.zero_grad()
for i, (x, y) in enumerate(zip(data, targets)):
    loss = F.cross_entropy(model(x), y) / accumulation
    loss.backward()
    if (i + 1) % accumulation == 0:
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        step = (i + 1) // accumulation
        print(f"step {step} loss {loss.item() * accumulation:.4f} grad_norm {norm.item():.4f} "
              f"lr {scheduler.get_last_lr()[0]:.6f}")
