import argparse

import torch
from torch import nn

from croppingModel import build_crop_model

cfg = {
    "reduced_dim": 16,
    "align_size": 3,
    "image_size": 32,
    "crops_per_image": 6,
    "lr": 1e-3,
}

parser = argparse.ArgumentParser(description="Grid anchor based image cropping")
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--batch_size", type=int, default=4)
parser.add_argument("--test_every", type=int, default=1)
args = parser.parse_args()


def random_crops(n, size, k, gen):
    x0 = torch.randint(0, size // 2, (n, k), generator=gen).float()
    y0 = torch.randint(0, size // 2, (n, k), generator=gen).float()
    w = torch.randint(size // 4, size // 2, (n, k), generator=gen).float()
    h = torch.randint(size // 4, size // 2, (n, k), generator=gen).float()
    return torch.stack([x0, y0, x0 + w, y0 + h], dim=-1)


def make_split(n, seed):
    gen = torch.Generator().manual_seed(seed)
    images = torch.randn(n, 3, cfg["image_size"], cfg["image_size"], generator=gen)
    boxes = random_crops(n, cfg["image_size"], cfg["crops_per_image"], gen)
    area = (boxes[..., 2] - boxes[..., 0]) * (boxes[..., 3] - boxes[..., 1])
    scores = area / area.amax(dim=1, keepdim=True) + 0.05 * torch.randn(area.shape, generator=gen)
    return images, boxes, scores


def to_rois(boxes):
    idx = torch.arange(boxes.shape[0]).repeat_interleave(boxes.shape[1]).unsqueeze(-1).float()
    return torch.cat([idx, boxes.reshape(-1, 4)], dim=1)


def test(net, data):
    net.eval()
    images, boxes, scores = data
    with torch.no_grad():
        out = net(images, to_rois(boxes)).view_as(scores)
    srcc = torch.corrcoef(torch.stack([out.flatten(), scores.flatten()]))[0, 1]
    return srcc.item()


def train():
    torch.manual_seed(0)
    net = build_crop_model(cfg)
    optimizer = torch.optim.Adam(net.parameters(), lr=cfg["lr"])
    criterion = nn.SmoothL1Loss()
    train_data = make_split(12, seed=1)
    test_data = make_split(8, seed=2)

    net.train()
    for epoch in range(args.epochs):
        images, boxes, scores = train_data
        perm = torch.randperm(images.shape[0])
        for i in range(0, images.shape[0], args.batch_size):
            idx = perm[i:i + args.batch_size]
            out = net(images[idx], to_rois(boxes[idx]))
            loss = criterion(out, scores[idx].flatten())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if (epoch + 1) % args.test_every == 0:
            print(f"epoch {epoch} loss {loss.item():.4f} SRCC {test(net, test_data):.4f}")
    return net


if __name__ == "__main__":
    net = train()
