import torch


class RandomTextDataset(torch.utils.data.Dataset):
    def __init__(self, n, seq_len, vocab_size, num_labels, pad_id=0, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.input_ids = torch.randint(5, vocab_size, (n, seq_len), generator=g)
        lengths = torch.randint(seq_len // 2, seq_len + 1, (n,), generator=g)
        self.attention_mask = (torch.arange(seq_len)[None, :] < lengths[:, None]).long()
        self.input_ids[self.attention_mask == 0] = pad_id
        self.labels = torch.randint(0, num_labels, (n,), generator=g)

    def __len__(self):
        return self.input_ids.size(0)

    def __getitem__(self, i):
        return {
            "input_ids": self.input_ids[i],
            "attention_mask": self.attention_mask[i],
            "labels": self.labels[i],
        }
