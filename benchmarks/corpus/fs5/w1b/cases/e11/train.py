import torch
import torch.nn.functional as F

from model import TinyDiT

CONFIG = {
    "latent_channels": 4,
    "latent_size": 16,
    "patch": 2,
    "dim": 64,
    "depth": 2,
    "heads": 4,
    "attention": "ulysses",
    "batch_size": 8,
    "lr": 1e-4,
    "steps": 4,
}


def flow_matching_loss(model, x1):
    x0 = torch.randn_like(x1)
    t = torch.rand(x1.shape[0])
    tt = t.view(-1, 1, 1, 1)
    xt = (1 - tt) * x0 + tt * x1
    return F.mse_loss(model(xt, t), x1 - x0)


def main(cfg):
    torch.manual_seed(0)
    model = TinyDiT(cfg["latent_channels"], cfg["patch"], cfg["dim"], cfg["depth"],
                    cfg["heads"], attn_type=cfg["attention"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=0.0)
    size = cfg["latent_size"]
    for step in range(cfg["steps"]):
        latents = torch.randn(cfg["batch_size"], cfg["latent_channels"], size, size)
        loss = flow_matching_loss(model, latents)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main(CONFIG)
