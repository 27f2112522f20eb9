"""Features computed once, outside the training loop, from a layer that requires grad."""
import torch
import torch.nn as nn

torch.manual_seed(0)
encoder = nn.Linear(6, 4)
head = nn.Linear(4, 1)
optimizer = torch.optim.SGD([*encoder.parameters(), *head.parameters()], lr=0.1)

inputs = torch.randn(8, 6)
features = torch.relu(encoder(inputs))

for epoch in range(3):
    optimizer.zero_grad()
    loss = head(features).pow(2).mean()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
