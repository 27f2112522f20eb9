import compat  # noqa: F401
import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset

from potential import PotentialLightningModule

TRAINER_CONFIG = {
    "max_epochs": 2,
    "accelerator": "cpu",
    "logger": False,
    "enable_checkpointing": False,
    "enable_progress_bar": False,
    "enable_model_summary": False,
}


def make_structures(n_struct, n_atoms=6, seed=0):
    g = torch.Generator().manual_seed(seed)
    species = torch.randint(0, 4, (n_struct, n_atoms), generator=g)
    positions = torch.rand(n_struct, n_atoms, 3, generator=g) * 4.0
    energies = torch.randn(n_struct, generator=g) * n_atoms
    forces = torch.randn(n_struct, n_atoms, 3, generator=g) * 0.1
    return TensorDataset(species, positions, energies, forces)


def main():
    L.seed_everything(42, verbose=False)
    train_loader = DataLoader(make_structures(32, seed=0), batch_size=8, shuffle=True)
    val_loader = DataLoader(make_structures(8, seed=1), batch_size=8)
    test_loader = DataLoader(make_structures(8, seed=2), batch_size=8)

    lit_module = PotentialLightningModule()
    trainer = L.Trainer(**TRAINER_CONFIG)
    trainer.fit(model=lit_module, train_dataloaders=train_loader, val_dataloaders=val_loader)
    print("validation:", {k: round(float(v), 4) for k, v in trainer.callback_metrics.items()})
    trainer.test(model=lit_module, dataloaders=test_loader)
    print("test:", {k: round(float(v), 4) for k, v in trainer.callback_metrics.items()})


if __name__ == "__main__":
    main()
