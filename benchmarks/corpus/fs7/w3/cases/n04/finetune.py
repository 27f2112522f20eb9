import compat  # noqa: F401

import timm
import torch
import torch.nn.functional as F
from torch import nn

CFG = {
    "arch": "resnet18",
    "num_classes": 4,
    "img_size": 64,
    "batch_size": 8,
    "steps": 6,
    "lr": 1e-2,
    "train_bn": False,
}


class LinearProbe(nn.Module):
    def __init__(self, arch, num_classes, train_bn=False):
        super().__init__()
        self.model = timm.create_model(arch, pretrained=False, num_classes=num_classes)
        self.train_bn = train_bn
        self.freeze_backbone()

    def freeze_backbone(self):
        for p in self.model.parameters():
            p.requires_grad = False
        for p in self.model.get_classifier().parameters():
            p.requires_grad = True

    def train(self, mode=True):
        super().train(mode)
        if mode and not self.train_bn:
            for m in self.model.modules():
                if isinstance(m, nn.modules.batchnorm._BatchNorm):
                    m.eval()
        return self

    def forward(self, x):
        feats = self.model.forward_features(x)
        return self.model.forward_head(feats)


def main():
    torch.manual_seed(0)
    net = LinearProbe(CFG["arch"], CFG["num_classes"], CFG["train_bn"])
    params = [p for p in net.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=CFG["lr"], momentum=0.9)
    images = torch.randn(CFG["batch_size"] * 2, 3, CFG["img_size"], CFG["img_size"])
    labels = torch.randint(0, CFG["num_classes"], (CFG["batch_size"] * 2,))

    net.train()
    for step in range(CFG["steps"]):
        idx = torch.randperm(images.size(0))[: CFG["batch_size"]]
        logits = net(images[idx])
        loss = F.cross_entropy(logits, labels[idx], label_smoothing=0.1)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")

    net.eval()
    with torch.no_grad():
        acc = (net(images).argmax(1) == labels).float().mean().item()
    print(f"train acc {acc:.3f}")
    return net


if __name__ == "__main__":
    net = main()
