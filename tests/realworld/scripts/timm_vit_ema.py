"""timm's own VisionTransformer (vit_tiny_patch16_224 shrunk: 32x32 images, 8x8 patches,
embed_dim 64, depth 2, stochastic depth 0.1, pretrained=False), timm's AdamW factory, and an
exponential moving average of the weights with timm.utils.ModelEmaV3."""

import _cpu_torchvision  # noqa: F401  (see that module: torchvision's CUDA wheel on a CPU torch)

import timm
import torch
import torch.nn.functional as F
from timm.optim import create_optimizer_v2
from timm.utils import ModelEmaV3

torch.manual_seed(0)

model = timm.create_model("vit_tiny_patch16_224", pretrained=False, num_classes=10, img_size=32, patch_size=8,
                          embed_dim=64, depth=2, num_heads=2, drop_path_rate=0.1)
ema = ModelEmaV3(model, decay=0.9)
optimizer = create_optimizer_v2(model, opt="adamw", lr=1e-3, weight_decay=0.05)

images = torch.randn(4, 3, 32, 32)
targets = torch.randint(0, 10, (4,))
model.train()
for step in range(4):
    loss = F.cross_entropy(model(images), targets, label_smoothing=0.1)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    ema.update(model, step=step)
    print(f"step {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    live = F.cross_entropy(model(images), targets).item()
    averaged = F.cross_entropy(ema.module(images), targets).item()
print(f"eval loss {live:.4f} ema loss {averaged:.4f}")
