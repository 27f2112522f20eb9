"""A DataLoader with spawn workers and a Dataset class defined in this script."""
import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, i):
        return torch.tensor([float(i * i)])


if __name__ == "__main__":
    loader = DataLoader(Squares(), batch_size=3, num_workers=1, multiprocessing_context="spawn")
    print([batch.flatten().tolist() for batch in loader])
