import torch
import torch.nn as nn
import torch.nn.functional as F

from heads import build_head

CFG = {
    "embedding_size": 32,
    "num_classes": 10,
    "head": {"type": "cosface", "s": 30.0, "m": 0.35},
    "lr": 0.05,
    "steps": 6,
}


class Backbone(nn.Module):
    def __init__(self, embedding_size):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.PReLU(16),
            nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.PReLU(32),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.embedding = nn.Sequential(nn.Linear(32, embedding_size), nn.BatchNorm1d(embedding_size))

    def forward(self, x):
        return self.embedding(self.features(x))


torch.manual_seed(0)
backbone = Backbone(CFG["embedding_size"])
head = build_head(CFG["head"], CFG["embedding_size"], CFG["num_classes"])
optimizer = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()),
                            lr=CFG["lr"], momentum=0.9, weight_decay=5e-4)

for step in range(CFG["steps"]):
    images = torch.randn(16, 3, 28, 28)
    labels = torch.randint(0, CFG["num_classes"], (16,))
    logits = head(backbone(images), labels)
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
