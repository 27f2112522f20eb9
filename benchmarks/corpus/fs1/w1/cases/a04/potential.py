import lightning as L
import torch
import torch.nn.functional as F

from model import PairPotential


class PotentialLightningModule(L.LightningModule):
    def __init__(self, energy_weight=1.0, force_weight=10.0, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.model = PairPotential()

    def forward(self, species, positions):
        return self.model(species, positions)

    def energy_and_forces(self, species, positions):
        with torch.enable_grad():
            positions = positions.clone().requires_grad_(True)
            energy = self(species, positions)
            grads = torch.autograd.grad(energy.sum(), positions, create_graph=self.training)[0]
        return energy, -grads

    def _loss(self, batch):
        species, positions, e_ref, f_ref = batch
        energy, forces = self.energy_and_forces(species, positions)
        n_atoms = positions.shape[1]
        e_loss = F.mse_loss(energy / n_atoms, e_ref / n_atoms)
        f_loss = F.mse_loss(forces, f_ref)
        loss = self.hparams.energy_weight * e_loss + self.hparams.force_weight * f_loss
        return loss, e_loss, f_loss

    def training_step(self, batch, batch_idx):
        loss, e_loss, f_loss = self._loss(batch)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        loss, e_loss, f_loss = self._loss(batch)
        self.log_dict({"val_loss": loss, "val_e_mae": e_loss.sqrt(), "val_f_mae": f_loss.sqrt()})

    def test_step(self, batch, batch_idx):
        loss, e_loss, f_loss = self._loss(batch)
        self.log_dict({"test_e_rmse": e_loss.sqrt(), "test_f_rmse": f_loss.sqrt()})

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
