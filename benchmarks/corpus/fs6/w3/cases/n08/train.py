import compat  # noqa: F401

import numpy as np
import torch
import torch.nn as nn
import torchvision

from mix import Mixup


class SoftTargetCrossEntropy(nn.Module):
    def forward(self, x, target):
        loss = torch.sum(-target * torch.log_softmax(x, dim=-1), dim=-1)
        return loss.mean()


def main():
    torch.manual_seed(0)
    np.random.seed(0)
    num_classes = 10
    model = torchvision.models.resnet18(weights=None, num_classes=num_classes)
    mixup_fn = Mixup(num_classes=num_classes)
    criterion = SoftTargetCrossEntropy()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=4)

    images = torch.randn(16, 3, 32, 32)
    labels = torch.randint(0, num_classes, (16,))
    mean = torch.tensor([0.4914, 0.4822, 0.4465]).view(1, 3, 1, 1)
    std = torch.tensor([0.2470, 0.2435, 0.2616]).view(1, 3, 1, 1)

    model.train()
    for step, (x, y) in enumerate(zip(images.split(4), labels.split(4))):
        x = x.clone()
        x.sub_(mean).div_(std)
        x, y_soft = mixup_fn(x, y)
        output = model(x)
        loss = criterion(output, y_soft)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        print(f"step {step} loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.4f}")

    model.eval()
    with torch.inference_mode():
        preds = model((images - mean) / std).argmax(dim=1)
    print(f"train acc {(preds == labels).float().mean().item():.3f}")


if __name__ == "__main__":
    main()
