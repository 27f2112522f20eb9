import torch
import torch.nn.functional as F

from model import FACDeblurNet

CFG = {
    "channels": 16,
    "kernel_size": 3,
    "filter_impl": "fused",
    "frames": 3,
    "batch_size": 2,
    "size": 32,
    "lr": 1e-4,
    "iters": 2,
}


def make_clip(cfg):
    sharp = torch.rand(cfg["batch_size"], cfg["frames"], 3, cfg["size"], cfg["size"])
    blurry = (sharp + 0.05 * torch.randn_like(sharp)).clamp(0, 1)
    return blurry, sharp


def run_clip(model, blurry, sharp, channels):
    b, t, _, h, w = blurry.shape
    prev_restored = blurry[:, 0]
    prev_feat = torch.zeros(b, channels, h // 2, w // 2)
    loss = 0.0
    for i in range(t):
        restored, prev_feat = model(blurry[:, i], prev_restored, prev_feat)
        loss = loss + F.mse_loss(restored, sharp[:, i])
        prev_restored = restored.detach()
    return loss / t


def main(cfg=CFG):
    torch.manual_seed(0)
    model = FACDeblurNet(cfg["channels"], cfg["kernel_size"], cfg["filter_impl"])
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for it in range(cfg["iters"]):
        blurry, sharp = make_clip(cfg)
        loss = run_clip(model, blurry, sharp, cfg["channels"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} loss {loss.item():.5f}")


if __name__ == "__main__":
    main()
