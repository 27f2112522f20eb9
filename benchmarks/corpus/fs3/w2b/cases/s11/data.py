import random


class InputData:
    """Toy corpus with a Zipf-like vocabulary; yields CBOW / skip-gram pairs."""

    def __init__(self, vocab_size=60, n_tokens=600, seed=0):
        rng = random.Random(seed)
        weights = [1.0 / (i + 1) for i in range(vocab_size)]
        self.vocab_size = vocab_size
        self.tokens = rng.choices(range(vocab_size), weights=weights, k=n_tokens)
        self.rng = rng

    def cbow_batch(self, batch_size, window, neg_count):
        pos_u, pos_v, neg_u, neg_v = [], [], [], []
        for _ in range(batch_size):
            i = self.rng.randrange(window, len(self.tokens) - window)
            context = self.tokens[i - window:i] + self.tokens[i + 1:i + 1 + window]
            pos_u.append(context)
            pos_v.append(self.tokens[i])
            for _ in range(neg_count):
                neg_u.append(context)
                neg_v.append(self.rng.randrange(self.vocab_size))
        return pos_u, pos_v, neg_u, neg_v

    def skipgram_batch(self, batch_size, window, neg_count):
        pos_u, pos_v, neg_u, neg_v = [], [], [], []
        for _ in range(batch_size):
            i = self.rng.randrange(window, len(self.tokens) - window)
            j = i + self.rng.choice([k for k in range(-window, window + 1) if k != 0])
            pos_u.append(self.tokens[i])
            pos_v.append(self.tokens[j])
            for _ in range(neg_count):
                neg_u.append(self.tokens[i])
                neg_v.append(self.rng.randrange(self.vocab_size))
        return pos_u, pos_v, neg_u, neg_v
