import torch
from torch.utils.data import DataLoader, TensorDataset

import lightning as L


class ToxicityDataModule(L.LightningDataModule):
    def __init__(self, n_samples=256, n_features=32, batch_size=32):
        super().__init__()
        self.n_samples = n_samples
        self.n_features = n_features
        self.batch_size = batch_size
        self.num_classes = None

    def prepare_data(self):
        pass

    def setup(self, stage=None):
        g = torch.Generator().manual_seed(11)
        self.num_classes = 6
        x = torch.randn(self.n_samples, self.n_features, generator=g)
        w = torch.randn(self.n_features, self.num_classes, generator=g)
        y = (x @ w).argmax(dim=1)
        self.train_set = TensorDataset(x, y)

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=False)
