import compat  # noqa: F401
import lightning as L
import torch

from data import make_loaders
from pinn import BurgersPINN


def main():
    L.seed_everything(0, verbose=False)
    torch.set_num_threads(1)
    train_loader, val_loader, test_loader = make_loaders()
    model = BurgersPINN()
    trainer = L.Trainer(max_epochs=2, accelerator="cpu", logger=False, enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(model, train_loader, val_loader)
    results = trainer.test(model, test_loader, verbose=False)
    print({k: float(v) for k, v in trainer.callback_metrics.items()}, results)


if __name__ == "__main__":
    main()
