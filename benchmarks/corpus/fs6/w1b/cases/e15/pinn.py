import math

import lightning as L
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, in_dim=2, hidden=32, depth=3):
        super().__init__()
        layers, d = [], in_dim
        for _ in range(depth):
            layers += [nn.Linear(d, hidden), nn.Tanh()]
            d = hidden
        layers.append(nn.Linear(d, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, xt):
        return self.net(xt)


def heat_residual(model, xt, alpha):
    u = model(xt)
    grads = torch.autograd.grad(u.sum(), xt, create_graph=True)[0]
    u_x, u_t = grads[:, :1], grads[:, 1:]
    u_xx = torch.autograd.grad(u_x.sum(), xt, create_graph=True)[0][:, :1]
    return u_t - alpha * u_xx


class HeatPINN(L.LightningModule):
    def __init__(self, alpha=0.1, lr=1e-3, bc_weight=10.0):
        super().__init__()
        self.save_hyperparameters()
        self.model = MLP()

    def forward(self, xt):
        return self.model(xt)

    def boundary_loss(self, xt0):
        u0 = self(xt0)
        return ((u0.squeeze(1) - torch.sin(math.pi * xt0[:, 0])) ** 2).mean()

    def training_step(self, batch, batch_idx):
        collocation, initial = batch
        xt = collocation.requires_grad_(True)
        pde = heat_residual(self.model, xt, self.hparams.alpha).pow(2).mean()
        loss = pde + self.hparams.bc_weight * self.boundary_loss(initial)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        collocation, initial = batch
        with torch.enable_grad():
            xt = collocation.clone().requires_grad_(True)
            pde = heat_residual(self.model, xt, self.hparams.alpha).pow(2).mean()
        bc = self.boundary_loss(initial)
        self.log("val_pde", pde)
        self.log("val_bc", bc)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
