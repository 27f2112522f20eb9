import torch


class Dictionary(object):
    def __init__(self):
        self.word2idx = {}
        self.idx2word = {}
        self.idx = 0

    def add_word(self, word):
        if word not in self.word2idx:
            self.word2idx[word] = self.idx
            self.idx2word[self.idx] = word
            self.idx += 1

    def __len__(self):
        return len(self.word2idx)


class Corpus(object):
    def __init__(self, vocab_size=200, seed=0):
        self.dictionary = Dictionary()
        self.vocab_size = vocab_size
        self.seed = seed

    def get_data(self, num_tokens, batch_size=20):
        g = torch.Generator().manual_seed(self.seed)
        for i in range(self.vocab_size):
            self.dictionary.add_word(f"w{i}")
        self.dictionary.add_word("<eos>")
        ids = torch.randint(0, len(self.dictionary), (num_tokens,), generator=g)
        num_batches = ids.size(0) // batch_size
        ids = ids[:num_batches * batch_size]
        return ids.view(batch_size, -1)
