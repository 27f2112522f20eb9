import torch
import torch.nn as nn


class RelationalAggregator(nn.Module):
    """Aggregates neighbour features separately for every relation type."""

    def __init__(self, numfeatures, numrel, n_relations=4):
        super().__init__()
        self.n_relations = n_relations
        self.waggrs = {}
        self.list_relations = {}
        for rel in range(n_relations):
            self.waggrs[rel] = {"w": nn.Parameter(1.0 + torch.randn(1, 2)),
                                "b": nn.Parameter(torch.zeros(1, numrel))}
            self.list_relations[rel] = nn.Linear(numfeatures, numrel)
        self.out = nn.Linear(numrel, 1)

    def forward(self, node_feats, neigh_feats, rel_ids):
        h = 0
        for rel in range(self.n_relations):
            sel = (rel_ids == rel).float()[:, :, None]
            msg = self.list_relations[rel](neigh_feats) * sel
            w = self.waggrs[rel]["w"]
            agg = w[0, 0] * msg.sum(1) + w[0, 1] * msg.max(1)[0] + self.waggrs[rel]["b"]
            h = h + agg
        return self.out(torch.relu(h)).squeeze(-1)
