import compat  # noqa: F401
import torch.nn as nn
from torchvision import models

HEADS = {
    "resnet18": ("fc", "in_features"),
    "mobilenet_v3_small": ("classifier", None),
    "efficientnet_b0": ("classifier", None),
}


def replace_head(model, arch, num_classes):
    attr, _ = HEADS[arch]
    if attr == "fc":
        model.fc = nn.Linear(model.fc.in_features, num_classes)
    else:
        last = model.classifier[-1]
        model.classifier[-1] = nn.Linear(last.in_features, num_classes)
    return model


def set_trainable(model, trainable_prefixes):
    for name, param in model.named_parameters():
        param.requires_grad = any(name.startswith(p) for p in trainable_prefixes)


def build_model(cfg):
    model = getattr(models, cfg["arch"])(weights=None)
    model = replace_head(model, cfg["arch"], cfg["num_classes"])
    if cfg["freeze_backbone"]:
        set_trainable(model, cfg["trainable_prefixes"])
    return model
