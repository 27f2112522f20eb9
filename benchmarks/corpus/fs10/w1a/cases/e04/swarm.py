import torch


class SwarmCallback:
    """Periodically merges the local weights with the weights of the other nodes."""

    def __init__(self, model, sync_frequency, peers, merge_method="mean"):
        self.model = model
        self.sync_frequency = sync_frequency
        self.peers = peers
        self.merge_method = merge_method
        self.batches_seen = 0

    def on_train_begin(self):
        self.batches_seen = 0

    def _collect(self, name):
        return [peer[name] for peer in self.peers]

    def _merge(self):
        local = self.model.state_dict()
        merged = {}
        for name, value in local.items():
            if not value.is_floating_point():
                continue
            stacked = torch.stack([value] + self._collect(name))
            merged[name] = stacked.mean(0)
        return merged

    def on_batch_end(self):
        self.batches_seen += 1
        if self.batches_seen % self.sync_frequency != 0:
            return
        merged = self._merge()
        with torch.no_grad():
            for name, tensor in self.model.state_dict().items():
                if name in merged:
                    tensor.copy_(merged[name])
