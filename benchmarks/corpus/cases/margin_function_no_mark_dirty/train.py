import torch
import torch.nn as nn

from margin import CosFaceHead


class Backbone(nn.Module):
    def __init__(self, emb_dim=64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.PReLU(16),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.PReLU(32),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(32, emb_dim)
        self.bn = nn.BatchNorm1d(emb_dim)

    def forward(self, x):
        return self.bn(self.fc(self.body(x)))


if __name__ == "__main__":
    torch.manual_seed(0)
    backbone, head = Backbone(), CosFaceHead(64, num_classes=50)
    params = list(backbone.parameters()) + list(head.parameters())
    optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=5e-4)
    criterion = nn.CrossEntropyLoss()
    for step in range(4):
        faces, ids = torch.randn(16, 3, 32, 32), torch.randint(0, 50, (16,))
        logits = head(backbone(faces), ids)
        loss = criterion(logits, ids)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")
