import torch

from backbone import VisionTransformer
from depther import make_depther

cfg = dict(img_size=64, embed_dim=96, depth=4, heads=4, batch_size=4, iters=6, lr=1e-3)


def synthetic_batch(bs, size, g):
    img = torch.rand(bs, 3, size, size, generator=g)
    yy, xx = torch.meshgrid(torch.linspace(0, 1, size), torch.linspace(0, 1, size), indexing="ij")
    depth = (1.0 + 4.0 * yy + img.mean(1) * 0.5).unsqueeze(1)
    return img, depth


def main():
    torch.manual_seed(0)
    vit = VisionTransformer(cfg["img_size"], 8, cfg["embed_dim"], cfg["depth"], cfg["heads"]).eval()
    model = make_depther(vit, cfg["embed_dim"])
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=cfg["lr"])
    g = torch.Generator().manual_seed(0)
    model.train()
    for it in range(cfg["iters"]):
        img, depth = synthetic_batch(cfg["batch_size"], cfg["img_size"], g)
        losses = model(img, depth_gt=depth, return_loss=True)
        loss = sum(losses.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} loss_depth {loss.item():.4f}")


if __name__ == "__main__":
    main()
