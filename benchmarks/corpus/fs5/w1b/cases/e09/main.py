import argparse

import compat  # noqa: F401
import torch
import torch.nn as nn
from torchvision import models

from cam import GradCAM

TARGET_LAYERS = {
    "resnet18": "layer4.1.bn2",
    "vgg11": "features.18",
    "mobilenet_v2": "features.18",
}


def build_model(arch, num_classes):
    model = getattr(models, arch)(weights=None)
    if arch.startswith("resnet"):
        model.fc = nn.Linear(model.fc.in_features, num_classes)
    else:
        last = model.classifier[-1]
        model.classifier[-1] = nn.Linear(last.in_features, num_classes)
    return model


def finetune(model, steps, lr=1e-3):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    crit = nn.CrossEntropyLoss()
    model.train()
    for _ in range(steps):
        x = torch.randn(4, 3, 48, 48)
        y = torch.randint(0, 10, (4,))
        opt.zero_grad()
        loss = crit(model(x), y)
        loss.backward()
        opt.step()
    return loss.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="resnet18", choices=sorted(TARGET_LAYERS))
    parser.add_argument("--num-classes", type=int, default=10)
    parser.add_argument("--steps", type=int, default=1)
    args = parser.parse_args()

    torch.manual_seed(0)
    model = build_model(args.arch, args.num_classes)
    print(f"finetune loss {finetune(model, args.steps):.4f}")

    model.eval()
    cam = GradCAM(model, TARGET_LAYERS[args.arch])
    images = torch.randn(2, 3, 48, 48)
    heatmaps, logits = cam(images)
    cam.remove()
    print("pred", logits.argmax(1).tolist(), "cam", tuple(heatmaps.shape),
          f"{heatmaps.mean().item():.4f}")


if __name__ == "__main__":
    main()
