import torch
import torch.nn.functional as F

from model import IPATransformer

CONFIG = {
    "dim": 32,
    "depth": 3,
    "heads": 4,
    "seq_len": 12,
    "batch_size": 4,
    "noise": 0.3,
    "steps": 5,
    "lr": 1e-3,
}


def random_backbone(batch, n, gen):
    steps = F.normalize(torch.randn(batch, n, 3, generator=gen), dim=-1) * 3.8
    return steps.cumsum(dim=1)


def main(cfg):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    net = IPATransformer(dim=cfg["dim"], depth=cfg["depth"], num_tokens=21, heads=cfg["heads"])
    optimizer = torch.optim.Adam(net.parameters(), lr=cfg["lr"])
    for step in range(cfg["steps"]):
        seq = torch.randint(0, 21, (cfg["batch_size"], cfg["seq_len"]), generator=gen)
        coords = random_backbone(cfg["batch_size"], cfg["seq_len"], gen)
        noised = coords + cfg["noise"] * torch.randn(coords.shape, generator=gen)
        denoised = net(seq, translations=noised)
        loss = F.mse_loss(denoised, coords)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main(CONFIG)
