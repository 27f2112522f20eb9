import math

import lightning as L
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, width=32, depth=3):
        super().__init__()
        layers, d = [], 2
        for _ in range(depth):
            layers += [nn.Linear(d, width), nn.Tanh()]
            d = width
        layers.append(nn.Linear(d, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, xt):
        return self.net(xt)


def burgers_residual(model, xt, nu):
    u = model(xt)
    du = torch.autograd.grad(u.sum(), xt, create_graph=True)[0]
    u_x, u_t = du[:, :1], du[:, 1:]
    u_xx = torch.autograd.grad(u_x.sum(), xt, create_graph=True)[0][:, :1]
    return u_t + u * u_x - nu * u_xx


class BurgersPINN(L.LightningModule):
    def __init__(self, nu=0.01 / math.pi, lr=1e-3, ic_weight=10.0):
        super().__init__()
        self.save_hyperparameters()
        self.model = MLP()

    def training_step(self, batch, batch_idx):
        xt, ic_xt, ic_u = batch
        xt = xt.clone().requires_grad_(True)
        res = burgers_residual(self.model, xt, self.hparams.nu)
        ic_loss = ((self.model(ic_xt) - ic_u) ** 2).mean()
        loss = (res ** 2).mean() + self.hparams.ic_weight * ic_loss
        self.log("train_loss", loss)
        return loss

    def _residual_metric(self, batch):
        (xt,) = batch
        with torch.enable_grad():
            xt = xt.clone().requires_grad_(True)
            res = burgers_residual(self.model, xt, self.hparams.nu)
        return (res ** 2).mean().detach()

    def validation_step(self, batch, batch_idx):
        self.log("val_residual", self._residual_metric(batch))

    def test_step(self, batch, batch_idx):
        self.log("test_residual", self._residual_metric(batch))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
