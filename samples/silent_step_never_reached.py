"""Gradient accumulation over `accumulate` batches, but the batch counter restarts every epoch
and an epoch has fewer batches than that: the condition before optimizer.step() is never true,
so the model never changes. Nothing raises."""
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--accumulate", type=int, default=6)
args = parser.parse_args()

torch.manual_seed(0)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(4)]
for epoch in range(3):
    for i, (x, y) in enumerate(batches):
        loss = nn.functional.mse_loss(model(x), y) / args.accumulate
        loss.backward()
        if (i + 1) % args.accumulate == 0:
            optimizer.step()
            optimizer.zero_grad()
    print("epoch", epoch, "loss", round(loss.item(), 4))
