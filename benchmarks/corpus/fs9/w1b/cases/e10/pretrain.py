import torch

from data import build_sampler, synthetic_volumes
from model import MaskedUnet3D

CONFIG = {
    "in_channels": 4,
    "volume_size": 24,
    "patch_size": 16,
    "sampler": "random",
    "batch_size": 2,
    "epochs": 2,
    "lr": 1e-3,
    "mask_ratio": 0.6,
}


def main(cfg):
    torch.manual_seed(0)
    volumes = synthetic_volumes(4, cfg["in_channels"], cfg["volume_size"])
    sampler = build_sampler(cfg)
    model = MaskedUnet3D(cfg["in_channels"], volume_size=cfg["volume_size"])
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])

    for epoch in range(cfg["epochs"]):
        for i in range(0, volumes.shape[0], cfg["batch_size"]):
            batch = volumes[i:i + cfg["batch_size"]]
            inputs, patch_locations = sampler(batch)
            target = inputs.clone()
            recon, mask = model(inputs, patch_locations, cfg["mask_ratio"])
            loss = (((recon - target) ** 2) * (1 - mask)).sum() / (1 - mask).sum().clamp(min=1)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main(CONFIG)
