import torch
import torch.nn.functional as F


class EncoderTrainer:
    def __init__(self, G, E, D, cfg):
        self.G, self.E, self.D = G, E, D
        self.cfg = cfg
        self.G.requires_grad_(False)
        self.optimizer_E = torch.optim.Adam(E.parameters(), lr=cfg["lr_e"], betas=(0.0, 0.99))
        self.optimizer_D = torch.optim.Adam(D.parameters(), lr=cfg["lr_d"], betas=(0.0, 0.99))

    def r1_penalty(self, real):
        real = real.detach().requires_grad_(True)
        out = self.D(real)
        grad, = torch.autograd.grad(out.sum(), real, create_graph=True)
        return grad.pow(2).flatten(1).sum(1).mean()

    def train_step(self, real):
        cfg = self.cfg
        # encoder update
        w = self.E(real)
        rec = self.G(w)
        loss_pix = F.mse_loss(rec, real)
        loss_feat = F.mse_loss(self.E(rec), w.detach())
        loss_adv = F.softplus(-self.D(rec)).mean()
        loss_E = loss_pix + cfg["w_feat"] * loss_feat + cfg["w_adv"] * loss_adv
        self.optimizer_E.zero_grad()
        loss_E.backward()
        self.optimizer_E.step()

        # discriminator update
        fake = rec.detach()
        loss_real = F.softplus(-self.D(real)).mean()
        loss_fake = F.softplus(self.D(fake)).mean()
        loss_D = loss_real + loss_fake + cfg["r1_gamma"] * 0.5 * self.r1_penalty(real)
        loss_D.backward()
        self.optimizer_D.step()
        return loss_E.item(), loss_D.item()
