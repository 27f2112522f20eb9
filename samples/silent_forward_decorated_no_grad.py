"""An encoder's forward is decorated with @torch.no_grad() (it was frozen once), but it is now
meant to train: its parameters are in the optimizer and never get a gradient."""
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    @torch.no_grad()
    def forward(self, x):
        return torch.relu(self.proj(x))


torch.manual_seed(0)
encoder, head = Encoder(), nn.Linear(8, 1)
optimizer = torch.optim.SGD([*encoder.parameters(), *head.parameters()], lr=0.1)
for _ in range(3):
    loss = head(encoder(torch.randn(4, 8))).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
