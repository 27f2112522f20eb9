import compat  # noqa: F401

import timm
import torch
import torch.nn as nn
from timm.layers import freeze_batch_norm_2d

CFG = {
    "model": "resnet18",
    "num_classes": 5,
    "img_size": 32,
    "trainable": ["layer4", "fc"],
    "freeze_bn": True,
    "lr": 1e-3,
    "epochs": 2,
    "batch_size": 8,
}


def build_model(cfg):
    model = timm.create_model(cfg["model"], pretrained=False, num_classes=cfg["num_classes"])
    for name, param in model.named_parameters():
        param.requires_grad = any(name.startswith(prefix) for prefix in cfg["trainable"])
    if cfg["freeze_bn"]:
        for name, child in list(model.named_children()):
            if name not in cfg["trainable"]:
                setattr(model, name, freeze_batch_norm_2d(child))
    return model


def param_groups(model, lr, weight_decay=1e-4):
    decay, no_decay = [], []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        if param.ndim <= 1 or name.endswith(".bias"):
            no_decay.append(param)
        else:
            decay.append(param)
    return [
        {"params": no_decay, "weight_decay": 0.0, "lr": lr},
        {"params": decay, "weight_decay": weight_decay, "lr": lr},
    ]


def main():
    torch.manual_seed(0)
    model = build_model(CFG)
    optimizer = torch.optim.SGD(param_groups(model, CFG["lr"]), momentum=0.9)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)

    images = torch.randn(16, 3, CFG["img_size"], CFG["img_size"])
    targets = torch.randint(0, CFG["num_classes"], (16,))

    for epoch in range(CFG["epochs"]):
        model.train()
        for x, y in zip(images.split(CFG["batch_size"]), targets.split(CFG["batch_size"])):
            out = model(x)
            loss = loss_fn(out, y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            acc = (model(images).argmax(1) == targets).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.3f}")

    n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"trainable params: {n_train}")


if __name__ == "__main__":
    main()
