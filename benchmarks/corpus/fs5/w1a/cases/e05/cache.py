import torch


class KVCache:
    def __init__(self):
        self.keys = []
        self.values = []

    def update(self, k, v, layer_idx):
        if len(self.keys) <= layer_idx:
            self.keys.append(k)
            self.values.append(v)
        else:
            self.keys[layer_idx] = torch.cat([self.keys[layer_idx], k], dim=2)
            self.values[layer_idx] = torch.cat([self.values[layer_idx], v], dim=2)
        return self.keys[layer_idx], self.values[layer_idx]

    def seq_len(self):
        return self.keys[0].shape[2] if self.keys else 0
