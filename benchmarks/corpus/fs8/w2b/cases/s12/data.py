import torch


def make_batches(n_batches, batch_size, seq_len, vocab_size, num_labels, generator):
    batches = []
    for _ in range(n_batches):
        ids = torch.randint(5, vocab_size, (batch_size, seq_len), generator=generator)
        lengths = torch.randint(seq_len // 2, seq_len + 1, (batch_size,), generator=generator)
        mask = (torch.arange(seq_len)[None, :] < lengths[:, None]).long()
        ids = ids * mask
        labels = torch.randint(0, num_labels, (batch_size,), generator=generator)
        batches.append({"input_ids": ids, "attention_mask": mask, "labels": labels})
    return batches
