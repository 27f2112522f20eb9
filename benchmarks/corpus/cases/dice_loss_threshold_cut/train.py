import torch
import torch.nn as nn

from losses import DiceLoss

torch.manual_seed(0)


class TinyUnet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.mid = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.dec = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(32, 1, 3, padding=1))

    def forward(self, x):
        e = self.enc(x)
        return self.dec(torch.cat([e, self.mid(e)], dim=1))


model = TinyUnet()
loss_fn = DiceLoss(activation=nn.Sigmoid(), threshold=0.5)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loader = [(torch.randn(4, 3, 32, 32), (torch.rand(4, 1, 32, 32) > 0.7).float()) for _ in range(3)]

for epoch in range(2):
    for images, masks in train_loader:
        optimizer.zero_grad()
        loss = loss_fn(model(images), masks)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: dice loss {loss.item():.4f}")
