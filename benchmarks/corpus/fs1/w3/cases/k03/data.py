import torch
from torch.utils.data import Dataset


class SyntheticPairs(Dataset):
    """Token sequences whose label is whether a marker token appears."""

    def __init__(self, n, seq_len, vocab_size, marker=7, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.input_ids = torch.randint(10, vocab_size, (n, seq_len), generator=g)
        self.labels = torch.randint(0, 2, (n,), generator=g)
        pos = torch.randint(1, seq_len // 2, (n,), generator=g)
        rows = torch.nonzero(self.labels, as_tuple=True)[0]
        self.input_ids[rows, pos[rows]] = marker
        self.input_ids[:, 0] = 2
        lengths = torch.randint(seq_len // 2, seq_len + 1, (n,), generator=g)
        self.attention_mask = (torch.arange(seq_len)[None, :] < lengths[:, None]).long()
        self.input_ids[self.attention_mask == 0] = 0

    def __len__(self):
        return self.labels.numel()

    def __getitem__(self, i):
        return {
            "input_ids": self.input_ids[i],
            "attention_mask": self.attention_mask[i],
            "labels": self.labels[i],
        }
