import torch

from config import CFG
from field import TriplaneField


def target_sdf(p):
    return p.norm(dim=-1) - 0.8


def main():
    torch.manual_seed(0)
    field = TriplaneField(CFG)
    opt = torch.optim.Adam(field.parameters(), lr=CFG["lr"])
    for step in range(CFG["steps"]):
        pts = (torch.rand(CFG["n_rays"], 3) * 2 - 1) * 1.2
        pts.requires_grad_(True)
        sigma, grad = field.density_and_gradient(pts)
        fit = (sigma - target_sdf(pts)).abs().mean()
        eik = ((grad.norm(dim=-1) - 1) ** 2).mean()
        loss = fit + CFG["eikonal_weight"] * eik
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} fit={fit.item():.4f} eik={eik.item():.4f}")


if __name__ == "__main__":
    main()
