"""A GAN whose generator output `fake` is used for both losses without detach()."""
import torch
import torch.nn as nn

torch.manual_seed(0)
G, D = nn.Linear(2, 2), nn.Linear(2, 1)
fake = torch.tanh(G(torch.randn(4, 2)))
D(fake).mean().backward()
(-D(fake)).mean().backward()
