import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

parser = argparse.ArgumentParser(description="Unsupervised segmentation by backpropagation")
parser.add_argument("--channels", default=32, type=int, help="number of feature channels / max labels")
parser.add_argument("--n_conv", default=3, type=int, help="number of 3x3 conv blocks")
parser.add_argument("--iters", default=8, type=int)
parser.add_argument("--min_labels", default=3, type=int)
parser.add_argument("--lr", default=0.1, type=float)
parser.add_argument("--w_sim", default=1.0, type=float, help="feature similarity weight")
parser.add_argument("--w_con", default=1.0, type=float, help="spatial continuity weight")
args = parser.parse_args()


class SegNet(nn.Module):
    def __init__(self, in_channels, channels, n_conv):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(in_channels, channels, 3, padding=1), nn.BatchNorm2d(channels))
        self.blocks = []
        for _ in range(n_conv - 1):
            self.blocks.append(nn.Sequential(
                nn.Conv2d(channels, channels, 3, padding=1),
                nn.BatchNorm2d(channels),
            ))
        self.classifier = nn.Sequential(nn.Conv2d(channels, channels, 1), nn.BatchNorm2d(channels))

    def forward(self, x):
        x = F.relu(self.stem(x))
        for block in self.blocks:
            x = F.relu(block(x))
        return self.classifier(x)


def continuity_loss(response):
    dy = response[1:, :, :] - response[:-1, :, :]
    dx = response[:, 1:, :] - response[:, :-1, :]
    return dy.abs().mean() + dx.abs().mean()


def segment(image):
    model = SegNet(image.size(1), args.channels, args.n_conv)
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    for it in range(args.iters):
        optimizer.zero_grad()
        response = model(image)[0].permute(1, 2, 0)
        flat = response.reshape(-1, args.channels)
        labels = flat.argmax(dim=1)
        n_labels = labels.unique().numel()
        loss = args.w_sim * F.cross_entropy(flat, labels) + args.w_con * continuity_loss(response)
        loss.backward()
        optimizer.step()
        print(f"{it} / {args.iters} | label num: {n_labels} | loss: {loss.item():.4f}")
        if n_labels <= args.min_labels:
            print(f"reached {n_labels} labels (min_labels={args.min_labels})")
            break
    return model, labels.view(response.shape[:2])


if __name__ == "__main__":
    torch.manual_seed(0)
    image = torch.rand(1, 3, 24, 24)
    model, label_map = segment(image)
