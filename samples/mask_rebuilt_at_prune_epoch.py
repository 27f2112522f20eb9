"""A linear layer with a learned soft mask, pruned every few epochs: prune() assigns a new
nn.Parameter to the mask after the optimizer was built, so the mask it then trains is in no optimizer."""

import torch
from torch import nn

torch.manual_seed(0)


class MaskedLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.linear = nn.Linear(n_in, n_out)
        self.mask = nn.Parameter(torch.ones(n_out, n_in))

    def forward(self, x):
        return nn.functional.linear(x, self.linear.weight * self.mask, self.linear.bias)

    def prune(self, ratio):
        scores = (self.linear.weight * self.mask).detach().abs()
        threshold = scores.flatten().kthvalue(int(scores.numel() * ratio)).values
        self.mask = nn.Parameter((scores > threshold).float())


def train(model, epochs, prune_every):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = [(torch.randn(16, 6), torch.randn(16, 3)) for _ in range(4)]
    for epoch in range(epochs):
        if epoch and epoch % prune_every == 0:
            model.prune(0.3)
        for x, y in data:
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


train(MaskedLinear(6, 3), epochs=5, prune_every=3)
