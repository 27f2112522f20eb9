import torch
from torch.utils.data import Dataset

PROPERTIES = ["logP", "solubility", "toxicity", "permeability"]


class AssayImages(Dataset):
    """Microscopy crops with up to four measured properties; unmeasured ones are NaN."""

    def __init__(self, n=24, size=16, missing_rate=0.15, seed=0):
        gen = torch.Generator().manual_seed(seed)
        self.images = torch.randn(n, 3, size, size, generator=gen)
        w = torch.randn(3, len(PROPERTIES), generator=gen)
        self.targets = self.images.mean(dim=(2, 3)) @ w + 0.1 * torch.randn(n, len(PROPERTIES), generator=gen)
        missing = torch.rand(n, len(PROPERTIES), generator=gen) < missing_rate
        self.targets[missing] = float("nan")

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.targets[i]
