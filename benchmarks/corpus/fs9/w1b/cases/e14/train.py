import torch
import torch.nn.functional as F

from network import SplatInterpolator

CFG = {"backbone": "resnet18", "out_indices": (1, 2, 3), "lr": 1e-4, "iters": 2, "batch": 2, "size": 32}


def make_triplet(g, cfg):
    frames = torch.rand(cfg["batch"], 3, 3, cfg["size"], cfg["size"], generator=g)
    return frames[:, 0], frames[:, 1], frames[:, 2]


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    net = SplatInterpolator(CFG)
    opt = torch.optim.AdamW(net.parameters(), lr=CFG["lr"])
    for it in range(CFG["iters"]):
        img0, gt, img1 = make_triplet(g, CFG)
        pred = net(img0, img1)
        loss = F.l1_loss(pred, gt)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"iter {it}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
