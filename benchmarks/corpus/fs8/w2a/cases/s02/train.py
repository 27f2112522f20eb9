import compat  # noqa: F401

import timm
import torch
from torch import nn

from metrics import ArcMarginProduct, HEAD_INIT

CFG = {
    "backbone": "resnet10t",
    "embedding_size": 64,
    "num_classes": 10,
    "head_init": "prototype",
    "lr": 0.05,
    "steps": 2,
    "batch_size": 10,
}


class FaceModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.backbone = timm.create_model(cfg["backbone"], num_classes=cfg["embedding_size"])

    def forward(self, x):
        return self.backbone(x)


def make_batches(cfg, n_batches):
    g = torch.Generator().manual_seed(1)
    for _ in range(n_batches):
        images = torch.randn(cfg["batch_size"], 3, 32, 32, generator=g)
        labels = torch.arange(cfg["batch_size"]) % cfg["num_classes"]
        yield images, labels


def main():
    torch.manual_seed(0)
    model = FaceModel(CFG)
    metric_fc = ArcMarginProduct(CFG["embedding_size"], CFG["num_classes"], s=30, m=0.5)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(
        [{"params": model.parameters()}, {"params": metric_fc.parameters()}],
        lr=CFG["lr"], momentum=0.9, weight_decay=5e-4,
    )
    batches = list(make_batches(CFG, CFG["steps"]))
    HEAD_INIT[CFG["head_init"]](metric_fc, model, *batches[0])
    for step, (images, labels) in enumerate(batches):
        feature = model(images)
        output = metric_fc(feature, labels)
        loss = criterion(output, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (output.argmax(1) == labels).float().mean().item()
        print(f"step {step} loss {loss.item():.4f} acc {acc:.3f}")
    return model, metric_fc


if __name__ == "__main__":
    main()
