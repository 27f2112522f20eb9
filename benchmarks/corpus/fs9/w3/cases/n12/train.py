import torch
import torch.nn as nn
import torch.nn.functional as F

from pcgrad import PCGrad
from tasks import TASKS

CFG = {"tasks": ["segmentation", "depth", "normals"], "in_dim": 24, "dim": 48, "lr": 1e-3,
       "steps": 20, "bsz": 32}


class Trunk(nn.Module):
    def __init__(self, in_dim, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, dim), nn.LayerNorm(dim), nn.GELU(),
                                 nn.Linear(dim, dim), nn.GELU())

    def forward(self, x):
        return self.net(x)


def make_batch(cfg, gen):
    x = torch.randn(cfg["bsz"], cfg["in_dim"], generator=gen)
    return {"x": x, "seg": (x[:, 0] > 0).long() + (x[:, 1] > 1).long(),
            "depth": x[:, :4].abs().sum(-1),
            "normals": F.normalize(x[:, 4:7], dim=-1)}


def main(cfg=CFG):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    trunk = Trunk(cfg["in_dim"], cfg["dim"])
    heads = nn.ModuleDict({name: TASKS[name](cfg["dim"]) for name in cfg["tasks"]})
    params = list(trunk.parameters()) + list(heads.parameters())
    opt = PCGrad(torch.optim.Adam(params, lr=cfg["lr"]), trunk.parameters())
    for step in range(cfg["steps"]):
        batch = make_batch(cfg, gen)
        feats = trunk(batch["x"])
        losses = [heads[name].loss(feats, batch) for name in cfg["tasks"]]
        opt.zero_grad()
        opt.pc_backward(losses)
        opt.step()
        if step % 5 == 0:
            print(f"step {step:2d} " + " ".join(
                f"{n} {l.item():.3f}" for n, l in zip(cfg["tasks"], losses)))
    return trunk, heads, opt


if __name__ == "__main__":
    trunk, heads, opt = main()
