import torch

from losses import d_hinge_loss, g_hinge_loss
from model import Discriminator, Generator

CFG = {"z_dim": 32, "batch_size": 8, "n_dis": 2, "steps": 2, "lr_d": 2e-4, "lr_g": 2e-4}


def train(cfg):
    torch.manual_seed(0)
    G, D = Generator(cfg["z_dim"]), Discriminator()
    opt_g = torch.optim.Adam(G.parameters(), lr=cfg["lr_g"], betas=(0.0, 0.9))
    opt_d = torch.optim.Adam(D.parameters(), lr=cfg["lr_d"], betas=(0.0, 0.9))
    data = [torch.rand(cfg["batch_size"], 3, 16, 16) * 2 - 1 for _ in range(4)]

    for step in range(cfg["steps"]):
        for i in range(cfg["n_dis"]):
            real = data[(step * cfg["n_dis"] + i) % len(data)]
            z = torch.randn(cfg["batch_size"], cfg["z_dim"])
            with torch.no_grad():
                fake = G(z)
            real_logits = D(real)
            fake_logits = D(fake)
            loss_d = d_hinge_loss(real_logits, fake_logits)
            opt_d.zero_grad()
            loss_d.backward()
            opt_d.step()

        z = torch.randn(cfg["batch_size"] * 2, cfg["z_dim"])
        loss_g = g_hinge_loss(D(G(z)))
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
        print(f"step {step}: loss_d {loss_d.item():.4f} loss_g {loss_g.item():.4f}")


if __name__ == "__main__":
    train(CFG)
