import torch


class Corpus:
    def __init__(self, vocab_size=200, n_train=20000, n_valid=4000, seed=1):
        g = torch.Generator().manual_seed(seed)
        self.vocab_size = vocab_size
        trans = torch.randint(0, vocab_size, (vocab_size, 4), generator=g)
        self.train = self._walk(trans, n_train, g)
        self.valid = self._walk(trans, n_valid, g)

    @staticmethod
    def _walk(trans, n, g):
        out = torch.empty(n, dtype=torch.long)
        tok = 0
        for i in range(n):
            out[i] = tok
            tok = trans[tok, torch.randint(0, 4, (1,), generator=g).item()].item()
        return out


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].reshape(-1)
    return data, target
