import torch


class DialogueGraphDataset:
    """Each dialogue is a graph whose nodes are utterances (token id sequences)."""

    def __init__(self, n_dialogues, vocab_size, max_nodes=4, seq_len=12, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for i in range(n_dialogues):
            n_nodes = max_nodes if i < 4 else int(torch.randint(2, max_nodes + 1, (1,), generator=g))
            ids = torch.randint(5, vocab_size, (n_nodes, seq_len), generator=g)
            ids[:, 0] = 2
            label = int(torch.randint(0, 3, (1,), generator=g))
            self.items.append((ids, label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch, max_nodes):
    seq_len = batch[0][0].shape[1]
    input_ids = torch.zeros(len(batch), max_nodes, seq_len, dtype=torch.long)
    node_mask = torch.zeros(len(batch), max_nodes, dtype=torch.bool)
    for b, (ids, _) in enumerate(batch):
        input_ids[b, :ids.shape[0]] = ids
        node_mask[b, :ids.shape[0]] = True
    labels = torch.tensor([label for _, label in batch])
    return input_ids, node_mask, labels
