"""The backbone is frozen and its batch norm put in eval mode to keep its statistics; but the
training loop calls model.train() at every epoch, which puts that batch norm back in train mode:
its running statistics drift while its weights stay frozen. Nothing raises."""
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(4, 16), nn.BatchNorm1d(16), nn.ReLU())
        self.head = nn.Linear(16, 3)

    def freeze_backbone(self):
        for p in self.backbone.parameters():
            p.requires_grad_(False)
        for m in self.backbone.modules():
            if isinstance(m, nn.BatchNorm1d):
                m.eval()

    def forward(self, x):
        return self.head(self.backbone(x))


torch.manual_seed(0)
model = Classifier()
model.freeze_backbone()
optimizer = torch.optim.SGD(model.head.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(3)]
for epoch in range(2):
    model.train()
    for x, y in data:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    print("epoch", epoch, "loss", round(loss.item(), 4))
