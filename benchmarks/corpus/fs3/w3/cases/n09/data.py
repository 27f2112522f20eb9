import torch
from torch.utils.data import Dataset


class AverageDataset(Dataset):
    def __init__(self, dataset_len=12, sequence_len=30, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.input_seq = torch.randn(dataset_len, sequence_len, 10, generator=g)
        top, bottom = self.input_seq.chunk(2, -1)
        self.output_seq = top + bottom.roll(shifts=1, dims=-1)

    def __len__(self):
        return self.input_seq.shape[0]

    def __getitem__(self, item):
        return self.input_seq[item], self.output_seq[item]
