"""A two-pass refiner takes its features from the batch tuple, runs a first pass on them, then
writes the first pass's guesses into those same features for the second pass: the first pass's
linear layer saved them for backward."""

import torch
from torch import nn

torch.manual_seed(0)


class TwoPassRefiner(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, batch):
        feats = batch[0]
        first = torch.tanh(self.proj(feats))
        feats[:, :2] = first[:, :2].detach()
        second = torch.tanh(self.proj(feats))
        return first, second


model = TwoPassRefiner(6)
batch = (torch.randn(4, 6), torch.randn(4, 6))
first, second = model(batch)
loss = (first - batch[1]).pow(2).mean() + (second - batch[1]).pow(2).mean()
loss.backward()
