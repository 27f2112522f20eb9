import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models import resnet18

from unet import DynamicUnet


def colorizer_encoder():
    body = resnet18(weights=None)
    return nn.Sequential(*list(body.children())[:-2])


def make_batch(n=4, size=32):
    color = torch.rand(n, 3, size, size)
    gray = color.mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    return gray, color


torch.manual_seed(0)
model = DynamicUnet(colorizer_encoder(), n_classes=3, img_size=(32, 32))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(4):
    gray, color = make_batch()
    pred = model(gray)
    loss = F.l1_loss(torch.sigmoid(pred), color)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
