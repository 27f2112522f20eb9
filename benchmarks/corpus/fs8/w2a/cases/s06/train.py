import torch

from detector import SRTODNet, compute_losses

CFG = {
    "fpn_channels": 64,
    "num_classes": 2,
    "dgfe": {"enabled": True, "thresh_init": 0.0156},
    "recon_weight": 1.0,
    "lr": 0.01,
    "iters": 4,
}


def make_batch(gen):
    images = torch.rand(2, 3, 64, 64, generator=gen)
    heatmaps = (torch.rand(2, CFG["num_classes"], 16, 16, generator=gen) > 0.95).float()
    return images, heatmaps


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = SRTODNet(CFG)
    optimizer = torch.optim.SGD(model.parameters(), lr=CFG["lr"], momentum=0.9)
    model.train()
    for it in range(CFG["iters"]):
        images, heatmaps = make_batch(gen)
        outputs = model(images)
        losses = compute_losses(outputs, images, heatmaps, CFG["recon_weight"])
        loss = sum(losses.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} " + " ".join(f"{k}={v.item():.4f}" for k, v in losses.items()))
    return model


if __name__ == "__main__":
    model = main()
