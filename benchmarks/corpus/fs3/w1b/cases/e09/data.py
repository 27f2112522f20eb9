import torch
from torch.utils.data import DataLoader, TensorDataset


def harmonic_dataset(n, n_atoms, seed):
    g = torch.Generator().manual_seed(seed)
    pos = torch.randn(n, n_atoms, 3, generator=g)
    energy = 0.5 * (pos ** 2).sum(dim=(1, 2))
    forces = -pos
    return TensorDataset(pos, energy, forces)


def make_loaders(cfg):
    train = harmonic_dataset(cfg["n_train"], cfg["n_atoms"], seed=0)
    val = harmonic_dataset(cfg["n_val"], cfg["n_atoms"], seed=1)
    test = harmonic_dataset(cfg["n_val"], cfg["n_atoms"], seed=2)
    kw = dict(batch_size=cfg["batch_size"], num_workers=0)
    return (DataLoader(train, shuffle=True, **kw),
            DataLoader(val, **kw),
            DataLoader(test, **kw))
