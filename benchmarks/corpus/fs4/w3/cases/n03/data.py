import torch


class ToySegments:
    """Imbalanced 3-class tabular data, served in fixed-size mini-batches."""

    def __init__(self, n=150, dim=20, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, dim, generator=g)
        probs = torch.tensor([0.7, 0.2, 0.1])
        self.y = torch.multinomial(probs, n, replacement=True, generator=g)

    def loader(self, batch_size):
        for i in range(0, len(self.x), batch_size):
            yield self.x[i:i + batch_size], self.y[i:i + batch_size]

    def num_batches(self, batch_size):
        return (len(self.x) + batch_size - 1) // batch_size
