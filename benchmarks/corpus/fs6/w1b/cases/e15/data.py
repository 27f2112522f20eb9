import torch
from torch.utils.data import DataLoader, Dataset


class HeatSamples(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.collocation = torch.rand(n, 2, generator=g)
        x0 = torch.rand(n, 1, generator=g)
        self.initial = torch.cat([x0, torch.zeros(n, 1)], dim=1)

    def __len__(self):
        return len(self.collocation)

    def __getitem__(self, i):
        return self.collocation[i], self.initial[i]


def make_loaders(batch_size=64):
    train = DataLoader(HeatSamples(256, 0), batch_size=batch_size, shuffle=True)
    val = DataLoader(HeatSamples(128, 1), batch_size=batch_size)
    return train, val
