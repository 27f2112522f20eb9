import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning as L


class Potential(nn.Module):
    def __init__(self, n_atoms, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(3 * n_atoms, hidden), nn.Softplus(),
            nn.Linear(hidden, hidden), nn.Softplus(),
            nn.Linear(hidden, 1),
        )

    def forward(self, pos):
        return self.net(pos.flatten(1)).squeeze(-1)


class ForceFieldModule(L.LightningModule):
    def __init__(self, n_atoms=4, hidden=64, lr=1e-3, force_weight=10.0):
        super().__init__()
        self.save_hyperparameters()
        self.potential = Potential(n_atoms, hidden)

    @torch.enable_grad()
    def forward(self, pos):
        pos = pos.requires_grad_(True)
        energy = self.potential(pos)
        forces = -torch.autograd.grad(
            energy, pos, grad_outputs=torch.ones_like(energy), create_graph=self.training
        )[0]
        return energy, forces

    def _loss(self, batch):
        pos, energy_ref, forces_ref = batch
        energy, forces = self(pos)
        e_loss = F.mse_loss(energy, energy_ref)
        f_loss = F.mse_loss(forces, forces_ref)
        return e_loss + self.hparams.force_weight * f_loss, e_loss, f_loss

    def training_step(self, batch, batch_idx):
        loss, e_loss, f_loss = self._loss(batch)
        self.log_dict({"train/energy": e_loss, "train/forces": f_loss})
        return loss

    def validation_step(self, batch, batch_idx):
        loss, e_loss, f_loss = self._loss(batch)
        self.log_dict({"val/loss": loss, "val/forces": f_loss})

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
