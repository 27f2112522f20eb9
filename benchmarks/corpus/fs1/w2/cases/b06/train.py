import torch

from model import PoseRegressor
from rotations import random_rotations

N_POINTS = 64


def sample_batch(template, g, batch=16, canonical_frac=0.25):
    rots = random_rotations(batch, generator=g)
    n_canon = int(batch * canonical_frac)
    rots[:n_canon] = torch.eye(3)
    points = torch.einsum("bij,nj->bni", rots, template)
    points = points + 0.01 * torch.randn(points.shape, generator=g)
    return points, rots


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(2)
    template = torch.randn(N_POINTS, 3, generator=g)
    model = PoseRegressor(in_dim=3 * N_POINTS)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(20):
        points, gt = sample_batch(template, g)
        pred = model(points)
        loss = model.compute_geodesic_loss(gt, pred)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if it % 5 == 0:
            print(f"iter {it:2d}  geodesic loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    model = main()
