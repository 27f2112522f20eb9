import compat  # noqa: F401
import logging
import warnings

import torch
import lightning as L

from datamodule import ToxicityDataModule
from module import Classifier

logging.getLogger("lightning").setLevel(logging.ERROR)
logging.getLogger("lightning.pytorch").setLevel(logging.ERROR)
warnings.filterwarnings("ignore")


def main():
    L.seed_everything(0, verbose=False)
    dm = ToxicityDataModule()
    model = Classifier()
    trainer = L.Trainer(
        max_epochs=2,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
    )
    trainer.fit(model, datamodule=dm)
    return model, trainer


if __name__ == "__main__":
    model, trainer = main()
