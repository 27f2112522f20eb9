import torch

PAD, CLS, SEP, MASK = 0, 1, 2, 3
SPECIAL = (PAD, CLS, SEP, MASK)


def synthetic_corpus(n, seq_len, vocab_size, seed):
    g = torch.Generator().manual_seed(seed)
    body = torch.randint(len(SPECIAL), vocab_size, (n, seq_len - 2), generator=g)
    lengths = torch.randint(seq_len // 2, seq_len - 1, (n,), generator=g)
    ids = torch.full((n, seq_len), PAD, dtype=torch.long)
    for i in range(n):
        L = int(lengths[i])
        ids[i, 0] = CLS
        ids[i, 1:L + 1] = body[i, :L]
        ids[i, L + 1] = SEP
    return ids


def mask_tokens(inputs, vocab_size, mlm_probability=0.15):
    labels = inputs.clone()
    probability_matrix = torch.full(labels.shape, mlm_probability)
    special_tokens_mask = (labels == PAD) | (labels == CLS) | (labels == SEP)
    probability_matrix.masked_fill_(special_tokens_mask, value=0.0)
    masked_indices = torch.bernoulli(probability_matrix).bool()
    labels[~masked_indices] = -100

    indices_replaced = torch.bernoulli(torch.full(labels.shape, 0.8)).bool() & masked_indices
    inputs[indices_replaced] = MASK

    indices_random = torch.bernoulli(torch.full(labels.shape, 0.5)).bool() & masked_indices & ~indices_replaced
    random_words = torch.randint(vocab_size, labels.shape, dtype=torch.long)
    inputs[indices_random] = random_words[indices_random]
    return inputs, labels
