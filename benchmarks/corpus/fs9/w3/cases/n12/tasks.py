import torch.nn as nn
import torch.nn.functional as F

TASKS = {}


def register(name):
    def deco(cls):
        TASKS[name] = cls
        return cls
    return deco


@register("segmentation")
class SegHead(nn.Module):
    def __init__(self, dim, n_out=3):
        super().__init__()
        self.head = nn.Linear(dim, n_out)

    def loss(self, feats, batch):
        return F.cross_entropy(self.head(feats), batch["seg"])


@register("depth")
class DepthHead(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.head = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 1))

    def loss(self, feats, batch):
        return F.l1_loss(self.head(feats).squeeze(-1), batch["depth"])


@register("normals")
class NormalHead(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.head = nn.Linear(dim, 3)

    def loss(self, feats, batch):
        pred = F.normalize(self.head(feats), dim=-1)
        return (1 - (pred * batch["normals"]).sum(-1)).mean()
