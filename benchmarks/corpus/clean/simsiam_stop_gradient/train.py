import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, in_dim=32, dim=64):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU())
        self.projector = nn.Sequential(nn.Linear(128, dim), nn.BatchNorm1d(dim))

    def forward(self, x):
        return self.projector(self.backbone(x))


class SimSiam(nn.Module):
    def __init__(self, dim=64, pred_dim=16):
        super().__init__()
        self.encoder = Encoder(dim=dim)
        self.predictor = nn.Sequential(nn.Linear(dim, pred_dim), nn.BatchNorm1d(pred_dim), nn.ReLU(), nn.Linear(pred_dim, dim))

    def forward(self, x1, x2):
        z1, z2 = self.encoder(x1), self.encoder(x2)
        p1, p2 = self.predictor(z1), self.predictor(z2)
        return p1, p2, z1.detach(), z2.detach()


def negative_cosine(p, z):
    return -F.cosine_similarity(p, z, dim=-1).mean()


def augment(x):
    mask = (torch.rand_like(x) > 0.1).float()
    return x * mask + 0.1 * torch.randn_like(x)


def main():
    torch.manual_seed(0)
    model = SimSiam()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    for step in range(6):
        x = torch.randn(32, 32)
        p1, p2, z1, z2 = model(augment(x), augment(x))
        loss = 0.5 * negative_cosine(p1, z2) + 0.5 * negative_cosine(p2, z1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            collapse = F.normalize(z1, dim=1).std(dim=0).mean().item()
        print(f"step {step} loss {loss.item():.4f} output std {collapse:.4f}")


if __name__ == "__main__":
    main()
