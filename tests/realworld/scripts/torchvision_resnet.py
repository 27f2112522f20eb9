"""torchvision's own resnet18 and mobilenet_v3_small (weights=None, 10 classes) trained a few
SGD steps on random 32x32 images; BatchNorm in train mode, then an eval-mode forward."""

import _cpu_torchvision  # noqa: F401  (see that module: torchvision's CUDA wheel on a CPU torch)

import torch
import torch.nn.functional as F
import torchvision

torch.manual_seed(0)

images = torch.randn(8, 3, 32, 32)
targets = torch.randint(0, 10, (8,))

for name, build in [("resnet18", torchvision.models.resnet18),
                    ("mobilenet_v3_small", torchvision.models.mobilenet_v3_small)]:
    model = build(weights=None, num_classes=10)
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    for step in range(3):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(images), targets)
        loss.backward()
        optimizer.step()
        print(f"{name} step {step} loss {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        accuracy = (model(images).argmax(1) == targets).float().mean().item()
    print(f"{name} eval accuracy {accuracy:.4f}")
