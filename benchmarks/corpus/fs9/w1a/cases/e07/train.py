import torch
from torch.utils.data import DataLoader, TensorDataset

from model import Regressor
from trainer import Trainer

CFG = {
    "lr": 0.05,
    "rho": 0.05,
    "adaptive": False,
    "weight_decay": 5e-4,
    "huber_beta": 1.0,
    "gap_alpha": 0.3,
    "gap_warmup_steps": 8,
    "epochs": 4,
    "batch_size": 64,
}


def main():
    torch.manual_seed(42)
    x = torch.randn(256, 20)
    w = torch.randn(20)
    y = x @ w + 0.1 * torch.randn(256)
    loader = DataLoader(TensorDataset(x, y), batch_size=CFG["batch_size"], shuffle=True)
    model = Regressor(20)
    Trainer(model, CFG).fit(loader, CFG["epochs"])


if __name__ == "__main__":
    main()
