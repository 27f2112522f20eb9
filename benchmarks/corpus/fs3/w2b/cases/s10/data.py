import torch
from torch.utils.data import Dataset


def gaussian_density(h, w, points, sigma=1.5):
    ys = torch.arange(h).float().view(-1, 1)
    xs = torch.arange(w).float().view(1, -1)
    density = torch.zeros(h, w)
    for y, x in points:
        g = torch.exp(-((ys - y) ** 2 + (xs - x) ** 2) / (2 * sigma ** 2))
        density += g / g.sum()
    return density


class CrowdPatches(Dataset):
    """Synthetic crowd patches with density-map targets (counts per pixel)."""

    def __init__(self, n=16, size=32, max_people=6, cutoff=1e-4, seed=0):
        gen = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            k = int(torch.randint(1, max_people + 1, (1,), generator=gen))
            pts = (torch.rand(k, 2, generator=gen) * (size - 1)).tolist()
            density = gaussian_density(size, size, pts)
            density[density < cutoff] = 0.0
            image = torch.rand(3, size, size, generator=gen) * 0.2 + density.unsqueeze(0) * 5
            self.items.append((image, density.unsqueeze(0)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]
