"""A correct partial fine-tune: the first stage is frozen with its batch-norm layer kept in eval
mode (its statistics are the pretrained ones, never gathered here), the second stage and the head
train; each epoch ends with an evaluation."""
import torch
from torch import nn


def stage(channels):
    return nn.Sequential(nn.Conv2d(channels, channels, 3, padding=1), nn.BatchNorm2d(channels), nn.ReLU())


class Net(nn.Module):
    def __init__(self, channels=4, classes=3):
        super().__init__()
        self.stem = nn.Conv2d(3, channels, 3, padding=1)
        self.layer1, self.layer2 = stage(channels), stage(channels)
        self.head = nn.Linear(channels, classes)

    def forward(self, x):
        return self.head(self.layer2(self.layer1(self.stem(x))).mean((2, 3)))


torch.manual_seed(0)
model = Net()
for part in (model.stem, model.layer1):
    part.requires_grad_(False)
optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
for epoch in range(2):
    model.train()
    model.layer1.eval()
    for step in range(2):
        loss = nn.functional.cross_entropy(model(torch.randn(4, 3, 8, 8)), torch.randint(0, 3, (4,)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        print(epoch, (model(torch.randn(4, 3, 8, 8)).argmax(1) == 0).float().mean().item())
