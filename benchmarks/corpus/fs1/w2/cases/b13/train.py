import compat  # noqa: F401
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision.models import resnet18

from adapters import add_adapters, adapter_parameters, train_adapter

NUM_CLASSES = 5


def build_model():
    backbone = resnet18(weights=None)
    backbone.fc = nn.Linear(backbone.fc.in_features, NUM_CLASSES)
    return add_adapters(backbone)


def batches(g, n, batch=8):
    for _ in range(n):
        y = torch.randint(0, NUM_CLASSES, (batch,), generator=g)
        x = torch.randn(batch, 3, 32, 32, generator=g) + y.view(-1, 1, 1, 1) * 0.2
        yield x, y


def main():
    torch.manual_seed(0)
    model = build_model()
    g = torch.Generator().manual_seed(3)
    train_adapter(model)
    optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.01, momentum=0.9)
    print(f"adapter params: {sum(p.numel() for p in adapter_parameters(model))}")
    for step, (x, y) in enumerate(batches(g, 8)):
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 2 == 0:
            print(f"step {step}  loss {loss.item():.4f}")
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = main()
