import torch


def get_calibration(vocab_size, nsamples, seqlen, seed):
    g = torch.Generator().manual_seed(seed)
    return [torch.randint(0, vocab_size, (1, seqlen), generator=g) for _ in range(nsamples)]
