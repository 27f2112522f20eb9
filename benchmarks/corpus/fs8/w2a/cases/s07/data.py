import torch


class DataLoaderLite:
    def __init__(self, B, T, vocab_size, split, seed):
        self.B = B
        self.T = T
        g = torch.Generator().manual_seed(seed + (0 if split == "train" else 1000))
        self.tokens = torch.randint(0, vocab_size, (B * T * 8 + 1,), generator=g)
        self.current_position = 0

    def reset(self):
        self.current_position = 0

    def next_batch(self):
        B, T = self.B, self.T
        buf = self.tokens[self.current_position:self.current_position + B * T + 1]
        x = buf[:-1].view(B, T)
        y = buf[1:].view(B, T)
        self.current_position += B * T
        if self.current_position + B * T + 1 > len(self.tokens):
            self.current_position = 0
        return x, y
