import argparse

import compat  # noqa: F401

import torch
import torch.nn.functional as F
import torchvision

import loss

parser = argparse.ArgumentParser(description="SoftTriple fine-tuning")
parser.add_argument("--epochs", default=2, type=int)
parser.add_argument("--batch-size", default=4, type=int)
parser.add_argument("--modellr", default=1e-3, type=float)
parser.add_argument("--centerlr", default=0.01, type=float)
parser.add_argument("--weight-decay", default=1e-4, type=float)
parser.add_argument("--eps", default=0.01, type=float)
parser.add_argument("--dim", default=64, type=int)
parser.add_argument("--C", default=6, type=int)
parser.add_argument("--K", default=4, type=int)
parser.add_argument("--la", default=20, type=float)
parser.add_argument("--gamma", default=0.1, type=float)
parser.add_argument("--tau", default=0.2, type=float)
parser.add_argument("--margin", default=0.01, type=float)
parser.add_argument("--freeze_BN", default=True, type=lambda s: s.lower() in ("1", "true"))
parser.add_argument("--seed", default=0, type=int)


class EmbeddingNet(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.backbone = torchvision.models.resnet18(weights=None)
        self.backbone.fc = torch.nn.Linear(self.backbone.fc.in_features, dim)

    def forward(self, x):
        return F.normalize(self.backbone(x), p=2, dim=1)


def make_loader(args, generator, n_batches=1):
    for _ in range(n_batches):
        x = torch.randn(args.batch_size, 3, 32, 32, generator=generator)
        y = torch.randint(0, args.C, (args.batch_size,), generator=generator)
        yield x, y


def train(loader, model, criterion, optimizer, args):
    model.train()
    if args.freeze_BN:
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.eval()
    for input, target in loader:
        output = model(input)
        loss_value = criterion(output, target)
        optimizer.zero_grad()
        loss_value.backward()
        optimizer.step()
    return loss_value.item()


def main():
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    generator = torch.Generator().manual_seed(args.seed)
    model = EmbeddingNet(args.dim)
    criterion = loss.SoftTriple(args.la, args.gamma, args.tau, args.margin, args.dim, args.C, args.K)
    optimizer = torch.optim.Adam([{"params": model.parameters(), "lr": args.modellr},
                                  {"params": criterion.parameters(), "lr": args.centerlr}],
                                 eps=args.eps, weight_decay=args.weight_decay)
    for epoch in range(args.epochs):
        value = train(make_loader(args, generator), model, criterion, optimizer, args)
        print("epoch %d loss %.4f" % (epoch, value))
    return model


if __name__ == "__main__":
    model = main()
