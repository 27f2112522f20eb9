import torch

PAD = 0


def make_batch(batch_size, max_len, vocab, min_len=0, generator=None):
    lengths = torch.randint(min_len, max_len + 1, (batch_size,), generator=generator)
    lengths[0] = max_len
    tokens = torch.randint(1, vocab, (batch_size, max_len), generator=generator)
    positions = torch.arange(max_len).unsqueeze(0)
    mask = positions < lengths.unsqueeze(1)
    tokens = tokens.masked_fill(~mask, PAD)
    labels = (tokens % 3 == 0).sum(1).clamp(max=3)
    return tokens, mask, labels
