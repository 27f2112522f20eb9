"""Entry point: train the anomaly detector on synthetic multivariate windows."""
import torch

from solver import Solver

config = {
    "lr": 1e-4,
    "num_epochs": 2,
    "k": 3,
    "win_size": 32,
    "input_c": 8,
    "output_c": 8,
    "d_model": 32,
    "e_layers": 2,
    "batch_size": 16,
    "num_windows": 48,
    "mode": "train",
}

if __name__ == "__main__":
    torch.manual_seed(0)
    solver = Solver(config)
    if config["mode"] == "train":
        solver.train()
