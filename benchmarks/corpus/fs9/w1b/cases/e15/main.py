import compat  # noqa: F401
import torch
import torch.nn.functional as F
import torchvision

from explain import GradCAM
from registry import get_target_layer

CONFIG = {"arch": "resnet18", "num_classes": 10, "steps": 2, "explain_every": 2, "batch_size": 4, "lr": 0.01}


def main(cfg):
    torch.manual_seed(0)
    model = getattr(torchvision.models, cfg["arch"])(weights=None, num_classes=cfg["num_classes"])
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9)
    images = torch.randn(cfg["steps"], cfg["batch_size"], 3, 32, 32)
    labels = torch.randint(0, cfg["num_classes"], (cfg["steps"], cfg["batch_size"]))
    probe = torch.randn(2, 3, 32, 32)

    model.train()
    for step in range(cfg["steps"]):
        loss = F.cross_entropy(model(images[step]), labels[step])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
        if (step + 1) % cfg["explain_every"] == 0:
            with GradCAM(model, get_target_layer(model, cfg["arch"])) as cam_fn:
                cams = cam_fn(probe)
            print(f"  cam mean {cams.mean().item():.4f}")


if __name__ == "__main__":
    main(CONFIG)
