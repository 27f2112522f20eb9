import torch


def make_batches(n_batches, batch_size, seq_len, vocab, num_labels, seed=0):
    g = torch.Generator().manual_seed(seed)
    batches = []
    for _ in range(n_batches):
        lengths = torch.randint(seq_len // 2, seq_len + 1, (batch_size,), generator=g)
        input_ids = torch.randint(5, vocab, (batch_size, seq_len), generator=g)
        attention_mask = (torch.arange(seq_len)[None, :] < lengths[:, None]).long()
        input_ids[attention_mask == 0] = 0
        input_ids[:, 0] = 2
        labels = torch.randint(0, num_labels, (batch_size,), generator=g)
        batches.append({"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels})
    return batches
