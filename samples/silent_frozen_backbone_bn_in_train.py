"""Linear evaluation: the backbone is frozen with requires_grad_(False) only, and the loop puts
the whole model in train mode, so the backbone's batch norm keeps updating its running
statistics from the probe's batches: the 'frozen' backbone changes. Nothing raises."""
import torch
import torch.nn as nn

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(4, 16), nn.BatchNorm1d(16), nn.ReLU())
head = nn.Linear(16, 3)
model = nn.Sequential(backbone, head)
backbone.requires_grad_(False)
optimizer = torch.optim.SGD(head.parameters(), lr=0.1)
for epoch in range(2):
    model.train()
    for _ in range(3):
        x, y = torch.randn(8, 4), torch.randint(0, 3, (8,))
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
print("loss", round(loss.item(), 4))
