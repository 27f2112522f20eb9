import torch
from torch import nn

import compat  # noqa: F401
import torchvision


class EmbeddingModel(nn.Module):
    def __init__(self, backbone, in_features, output_dim=None):
        super().__init__()
        self.backbone = backbone
        if output_dim is not None:
            self.projection = nn.Sequential(
                nn.Linear(in_features, output_dim),
                nn.BatchNorm1d(output_dim),
            )
        else:
            self.projection = nn.Identity()

    def forward(self, x):
        return self.projection(self.backbone(x))


def build_backbone(name):
    factory = getattr(torchvision.models, name)
    net = factory(weights=None)
    in_features = net.fc.in_features
    net.fc = nn.Identity()
    return net, in_features


def freeze_layers(model, freeze_exclude=()):
    for name, param in model.named_parameters():
        if any(name.startswith(prefix) for prefix in freeze_exclude):
            continue
        param.requires_grad = False


def to_embedding_model(name, output_dim=None, freeze=False):
    backbone, in_features = build_backbone(name)
    model = EmbeddingModel(backbone, in_features, output_dim)
    if freeze:
        freeze_layers(model)
    return model
