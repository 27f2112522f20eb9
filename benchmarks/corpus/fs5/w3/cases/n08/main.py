import torch
import torch.nn.functional as F

import compat  # noqa: F401
from torchvision.models import resnet18

from gradcam import GradCAM

SETTINGS = {"num_classes": 5, "image_size": 64, "batch_size": 4, "train_steps": 3, "lr": 0.01}


def train_some(model, s):
    opt = torch.optim.SGD(model.parameters(), lr=s["lr"], momentum=0.9)
    model.train()
    for step in range(s["train_steps"]):
        x = torch.randn(s["batch_size"], 3, s["image_size"], s["image_size"])
        y = torch.randint(0, s["num_classes"], (s["batch_size"],))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")
    return opt


def explain(model, s):
    images = torch.randn(3, 3, s["image_size"], s["image_size"])
    with GradCAM(model, model.layer4) as cam_fn:
        cams, logits = cam_fn(images)
    return images, cams, logits


if __name__ == "__main__":
    torch.manual_seed(0)
    model = resnet18(weights=None, num_classes=SETTINGS["num_classes"])
    optimizer = train_some(model, SETTINGS)
    images, cams, logits = explain(model, SETTINGS)
    print("cam", tuple(cams.shape), "pred", logits.argmax(1).tolist())
