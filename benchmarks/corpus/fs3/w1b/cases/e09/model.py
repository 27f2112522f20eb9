import torch
import torch.nn as nn
import lightning as L


class EnergyMLP(nn.Module):
    def __init__(self, n_atoms, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_atoms * 3, hidden),
            nn.SiLU(),
            nn.Linear(hidden, hidden),
            nn.SiLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, pos):
        return self.net(pos.flatten(1)).squeeze(-1)


class ForceFieldModule(L.LightningModule):
    def __init__(self, n_atoms=8, hidden=64, lr=1e-3, force_weight=10.0):
        super().__init__()
        self.save_hyperparameters()
        self.model = EnergyMLP(n_atoms, hidden)

    def predict_energy_forces(self, pos):
        with torch.enable_grad():
            pos = pos.requires_grad_(True)
            energy = self.model(pos)
            forces = -torch.autograd.grad(
                energy.sum(), pos, create_graph=self.training
            )[0]
        return energy, forces

    def _losses(self, batch):
        pos, e_ref, f_ref = batch
        energy, forces = self.predict_energy_forces(pos)
        e_loss = nn.functional.mse_loss(energy, e_ref)
        f_loss = nn.functional.mse_loss(forces, f_ref)
        return e_loss, f_loss

    def training_step(self, batch, batch_idx):
        e_loss, f_loss = self._losses(batch)
        loss = e_loss + self.hparams.force_weight * f_loss
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        e_loss, f_loss = self._losses(batch)
        self.log("val/e_mae", e_loss)
        self.log("val/f_mae", f_loss)

    def test_step(self, batch, batch_idx):
        e_loss, f_loss = self._losses(batch)
        self.log("test/e_mae", e_loss)
        self.log("test/f_mae", f_loss)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
