import torch
from torch.utils.data import Dataset


class SyntheticRegression(Dataset):
    def __init__(self, n=256, dim=20, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, dim, generator=g)
        w = torch.randn(dim, 1, generator=g)
        self.y = self.x @ w + 0.05 * torch.randn(n, 1, generator=g)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]
