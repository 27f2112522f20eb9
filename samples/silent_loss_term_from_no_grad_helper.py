"""A perceptual term is computed on images made by `render`, the inference routine, which is
decorated with @torch.no_grad(): the term is added to the loss but carries no graph, so it trains
nothing. Nothing raises."""
import torch
import torch.nn as nn


@torch.no_grad()
def render(generator, z):
    return torch.tanh(generator(z))


torch.manual_seed(0)
generator = nn.Linear(4, 8)
optimizer = torch.optim.SGD(generator.parameters(), lr=0.1)
for step in range(3):
    z = torch.randn(2, 4)
    reconstruction = generator(z).pow(2).mean()
    perceptual = render(generator, z).abs().mean()
    loss = reconstruction + 0.1 * perceptual
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
