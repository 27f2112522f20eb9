import torch
from torch.utils.data import DataLoader, TensorDataset


def build_loader(n=192, dim=24, batch_size=8):
    g = torch.Generator().manual_seed(5)
    x = torch.randn(n, dim, generator=g)
    w = torch.randn(dim, 1, generator=g)
    y = torch.sin(x @ w) + 0.05 * torch.randn(n, 1, generator=g)
    return DataLoader(TensorDataset(x, y), batch_size=batch_size, shuffle=False)
