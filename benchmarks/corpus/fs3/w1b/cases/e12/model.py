import torch.nn as nn

from fa_layers import LinearFA


class FAMLP(nn.Module):
    def __init__(self, in_dim, hidden_dims, num_classes, bias=True, batch_norm=False):
        super().__init__()
        layers = []
        prev = in_dim
        for h in hidden_dims:
            layers.append(LinearFA(prev, h, bias=bias))
            if batch_norm:
                layers.append(nn.BatchNorm1d(h))
            layers.append(nn.ReLU())
            prev = h
        self.body = nn.Sequential(*layers)
        self.head = LinearFA(prev, num_classes, bias=True)

    def forward(self, x):
        return self.head(self.body(x.flatten(1)))


def build_model(cfg):
    return FAMLP(
        in_dim=cfg["in_dim"],
        hidden_dims=cfg["hidden_dims"],
        num_classes=cfg["num_classes"],
        bias=not cfg["batch_norm"],
        batch_norm=cfg["batch_norm"],
    )
