import torch

VOCAB = "0123456789abcdefghijklmnopqrstuvwxyz"


def encode_sequences(words, max_len, eos):
    target = torch.full((len(words), max_len + 1), eos, dtype=torch.long)
    for i, w in enumerate(words):
        target[i, : len(w)] = torch.tensor([VOCAB.index(c) for c in w])
    seq_len = torch.tensor([len(w) for w in words])
    return target, seq_len
