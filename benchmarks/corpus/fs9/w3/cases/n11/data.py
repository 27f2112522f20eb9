import torch


def batchify(stream, bsz):
    n = stream.size(0) // bsz
    return stream[: n * bsz].view(bsz, n).contiguous()


def get_chunk(source, i, bptt):
    seq_len = min(bptt, source.size(1) - 1 - i)
    return source[:, i:i + seq_len], source[:, i + 1:i + 1 + seq_len]


def synthetic_stream(n, vocab, gen):
    base = torch.randint(0, vocab, (n,), generator=gen)
    base[1::3] = (base[0::3][: base[1::3].numel()] + 1) % vocab
    return base
