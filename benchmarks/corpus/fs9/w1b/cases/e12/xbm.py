import torch


class XbmConfig:
    def __init__(self, buffer_size=64, start_iteration=2, weight=0.5):
        self.buffer_size = buffer_size
        self.start_iteration = start_iteration
        self.weight = weight


class XbmBuffer:
    def __init__(self, config, embedding_size):
        self._buffer_size = config.buffer_size
        self._embeddings = torch.zeros(config.buffer_size, embedding_size)
        self._targets = torch.zeros(config.buffer_size, dtype=torch.long)
        self._pointer = 0
        self._is_full = False

    def queue(self, embeddings, targets):
        batch_size = embeddings.shape[0]
        if self._pointer + batch_size > self._buffer_size:
            self._pointer = 0
            self._is_full = True
        self._embeddings[self._pointer:self._pointer + batch_size] = embeddings
        self._targets[self._pointer:self._pointer + batch_size] = targets
        self._pointer += batch_size

    def get(self):
        size = self._buffer_size if self._is_full else self._pointer
        return self._embeddings[:size], self._targets[:size]
