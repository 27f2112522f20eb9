import torch
from torch.utils.data import Dataset


class MultiTaskPropertyDataset(Dataset):
    """Molecular descriptors with several regression targets; unmeasured targets are NaN."""

    def __init__(self, n, n_features, n_tasks, missing_from=None, missing_rate=0.2, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, n_features, generator=g)
        w = torch.randn(n_features, n_tasks, generator=g) / n_features ** 0.5
        self.y = self.x @ w + 0.1 * torch.randn(n, n_tasks, generator=g)
        if missing_from is not None:
            drop = torch.rand(n, n_tasks, generator=g) < missing_rate
            drop[:missing_from] = False
            self.y[drop] = float("nan")

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]
