import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from model import Discriminator, Generator

DEFAULTS = {
    "latent_dim": 64,
    "lr_g": 2e-4,
    "lr_d": 2e-4,
    "rec_weight": 10.0,
    "batch_size": 8,
    "steps": 12,
}


class Image2Reverb(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.g = Generator(cfg["latent_dim"])
        self.d = Discriminator(cfg["latent_dim"])

    def configure_optimizers(self):
        opt_g = torch.optim.Adam(self.g.parameters(), lr=self.cfg["lr_g"], betas=(0.5, 0.999))
        opt_d = torch.optim.Adam(self.d.parameters(), lr=self.cfg["lr_d"], betas=(0.5, 0.999))
        return [opt_g, opt_d]

    def training_step(self, batch, optimizer_idx):
        img, spec = batch
        fake_spec, f = self.g(img)
        if optimizer_idx == 0:
            d_fake = self.d(fake_spec.detach(), f)
            g_adv = F.mse_loss(d_fake, torch.ones_like(d_fake))
            g_rec = F.l1_loss(fake_spec, spec)
            loss = g_adv + self.cfg["rec_weight"] * g_rec
            return loss, {"g_adv": g_adv.item(), "g_rec": g_rec.item()}
        d_real = self.d(spec, f.detach())
        d_fake = self.d(fake_spec.detach(), f.detach())
        loss = 0.5 * (F.mse_loss(d_real, torch.ones_like(d_real)) + F.mse_loss(d_fake, torch.zeros_like(d_fake)))
        return loss, {"d": loss.item()}


def fake_loader(cfg, n):
    g = torch.Generator().manual_seed(0)
    for _ in range(n):
        img = torch.randn(cfg["batch_size"], 3, 32, 32, generator=g)
        spec = torch.tanh(torch.randn(cfg["batch_size"], 1, 32, 32, generator=g))
        yield img, spec


def fit(module, cfg):
    optimizers = module.configure_optimizers()
    module.train()
    for step, batch in enumerate(fake_loader(cfg, cfg["steps"])):
        logs = {}
        for idx, opt in enumerate(optimizers):
            opt.zero_grad()
            loss, out = module.training_step(batch, idx)
            loss.backward()
            opt.step()
            logs.update(out)
        if step % 4 == 0 or step == cfg["steps"] - 1:
            print(f"step {step:3d} " + " ".join(f"{k}={v:.4f}" for k, v in logs.items()))
    return module


def main(argv=None):
    parser = argparse.ArgumentParser()
    for k, v in DEFAULTS.items():
        parser.add_argument(f"--{k}", type=type(v), default=v)
    cfg = vars(parser.parse_args(argv))
    torch.manual_seed(0)
    module = Image2Reverb(cfg)
    return fit(module, cfg)


if __name__ == "__main__":
    main()
