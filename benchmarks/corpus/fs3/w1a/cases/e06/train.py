"""Fit the potential to reference energies of MD frames."""
import torch

from model import ChargePotential

CONFIG = {"n_atoms": 12, "n_species": 2, "box": 6.0, "n_frames": 8, "epochs": 2, "lr": 5e-3}


def load_frames(cfg):
    g = torch.Generator().manual_seed(1)
    species = torch.arange(cfg["n_atoms"]) % cfg["n_species"]
    frames = []
    for _ in range(cfg["n_frames"]):
        cell = cfg["box"] * torch.eye(3)
        positions = torch.rand(cfg["n_atoms"], 3, generator=g) * cfg["box"]
        energy = torch.randn((), generator=g)
        frames.append({"positions": positions, "species": species, "cell": cell, "energy": energy})
    return frames


def main():
    torch.manual_seed(0)
    frames = load_frames(CONFIG)
    model = ChargePotential(CONFIG["n_species"])
    opt = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
    for epoch in range(CONFIG["epochs"]):
        total = 0.0
        for frame in frames:
            opt.zero_grad()
            pred = model(frame["positions"], frame["species"], frame["cell"])
            loss = (pred - frame["energy"]) ** 2
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: mse {total / len(frames):.4f}")


if __name__ == "__main__":
    main()
