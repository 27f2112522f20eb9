import torch
import torch.nn.functional as F

from model import LatentDenoiser

CONFIG = {
    "channels": 4,
    "size": 8,
    "dim": 64,
    "depth": 2,
    "heads": 4,
    "dim_head": 16,
    "context_dim": 32,
    "context_len": 6,
    "use_checkpoint": True,
    "without_crossattn": True,
    "timesteps": 1000,
    "batch": 8,
    "steps": 5,
    "lr": 1e-4,
}


def linear_alphas_cumprod(n, start=8.5e-4, end=1.2e-2):
    betas = torch.linspace(start ** 0.5, end ** 0.5, n) ** 2
    return torch.cumprod(1 - betas, dim=0)


def main(cfg):
    torch.manual_seed(0)
    model = LatentDenoiser(cfg["channels"], cfg["dim"], cfg["depth"], cfg["heads"],
                           cfg["dim_head"], cfg["context_dim"], cfg["use_checkpoint"])
    if cfg["without_crossattn"]:
        model.freeze_cross_attention()
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=cfg["lr"])
    acp = linear_alphas_cumprod(cfg["timesteps"])
    for step in range(cfg["steps"]):
        x0 = torch.randn(cfg["batch"], cfg["channels"], cfg["size"], cfg["size"])
        context = torch.randn(cfg["batch"], cfg["context_len"], cfg["context_dim"])
        t = torch.randint(0, cfg["timesteps"], (cfg["batch"],))
        noise = torch.randn_like(x0)
        a = acp[t].view(-1, 1, 1, 1)
        xt = a.sqrt() * x0 + (1 - a).sqrt() * noise
        loss = F.mse_loss(model(xt, t, context), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main(CONFIG)
