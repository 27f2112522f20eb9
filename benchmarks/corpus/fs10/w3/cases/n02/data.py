import torch


def make_batches(n_batches, batch_size, seq_len, vocab_size, pad_id, seed=0):
    g = torch.Generator().manual_seed(seed)
    batches = []
    for _ in range(n_batches):
        ids = torch.randint(1, vocab_size, (batch_size, seq_len), generator=g)
        lengths = torch.randint(seq_len // 2, seq_len + 1, (batch_size,), generator=g)
        mask = torch.arange(seq_len)[None, :] < lengths[:, None]
        ids[~mask] = pad_id
        batches.append({"input_ids": ids, "attention_mask": mask.long()})
    return batches


def collate_for_lm(batch, pad_id):
    labels = batch["input_ids"].clone()
    labels[labels == pad_id] = -100
    return {**batch, "labels": labels}
