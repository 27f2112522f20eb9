import torch

PAD = 0


def prepare_data(seqs_x, seqs_y, eval=False):
    def _np_pad_batch_2D(samples, pad):
        batch_size = len(samples)
        max_len = max(len(s) for s in samples)
        x = torch.full((batch_size, max_len), pad, dtype=torch.long)
        for i, s in enumerate(samples):
            x[i, :len(s)] = torch.tensor(s, dtype=torch.long)
        return x

    x = _np_pad_batch_2D(seqs_x, PAD)
    y = _np_pad_batch_2D(seqs_y, PAD)
    grad_mode = not eval
    torch.set_grad_enabled(grad_mode)
    return x, y


def random_corpus(n, vocab, min_len=4, max_len=9, seed=0):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        lx = int(torch.randint(min_len, max_len, (1,), generator=g))
        ly = int(torch.randint(min_len, max_len, (1,), generator=g))
        sx = torch.randint(1, vocab, (lx,), generator=g).tolist()
        sy = torch.randint(1, vocab, (ly,), generator=g).tolist()
        out.append((sx, sy))
    return out


def batches(corpus, batch_size):
    for i in range(0, len(corpus), batch_size):
        chunk = corpus[i:i + batch_size]
        yield [c[0] for c in chunk], [c[1] for c in chunk]
