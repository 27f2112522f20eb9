import torch
from torch.utils.data import DataLoader, TensorDataset


def lennard_jones(pos, eps=1.0, sigma=1.0):
    diff = pos.unsqueeze(2) - pos.unsqueeze(1)
    n = pos.size(1)
    mask = ~torch.eye(n, dtype=torch.bool)
    r = diff.norm(dim=-1)[:, mask].view(pos.size(0), n, n - 1)
    sr6 = (sigma / r) ** 6
    return 2 * eps * (sr6 ** 2 - sr6).sum(dim=(1, 2))


def make_dataset(n_samples, n_atoms, seed):
    g = torch.Generator().manual_seed(seed)
    base = torch.tensor([[0.0, 0.0, 0.0], [1.2, 0.0, 0.0], [0.0, 1.2, 0.0], [0.0, 0.0, 1.2]])[:n_atoms]
    pos = base + 0.05 * torch.randn(n_samples, n_atoms, 3, generator=g)
    pos.requires_grad_(True)
    energy = lennard_jones(pos)
    forces = -torch.autograd.grad(energy.sum(), pos)[0]
    return TensorDataset(pos.detach(), energy.detach(), forces.detach())


def make_loaders(n_atoms, batch_size=16):
    train = DataLoader(make_dataset(128, n_atoms, 0), batch_size=batch_size, shuffle=True)
    val = DataLoader(make_dataset(32, n_atoms, 1), batch_size=batch_size)
    return train, val
