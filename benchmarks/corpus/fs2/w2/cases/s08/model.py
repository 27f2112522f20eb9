import numpy as np
import torch
import torch.nn as nn
from torch.nn.init import xavier_normal_


class TuckER(nn.Module):
    def __init__(self, n_entities, n_relations, ent_dim, rel_dim,
                 input_dropout=0.2, hidden_dropout1=0.2, hidden_dropout2=0.3):
        super().__init__()
        self.E = nn.Embedding(n_entities, ent_dim, padding_idx=0)
        self.R = nn.Embedding(n_relations, rel_dim, padding_idx=0)
        core = np.random.uniform(-1, 1, (rel_dim, ent_dim, ent_dim))
        self.W = nn.Parameter(torch.tensor(core, dtype=torch.float))
        self.drop_in = nn.Dropout(input_dropout)
        self.drop_core = nn.Dropout(hidden_dropout1)
        self.drop_out = nn.Dropout(hidden_dropout2)
        self.bn_in = nn.BatchNorm1d(ent_dim)
        self.bn_out = nn.BatchNorm1d(ent_dim)
        self.loss = nn.BCELoss()

    def reset_parameters(self):
        xavier_normal_(self.E.weight.data)
        xavier_normal_(self.R.weight.data)

    def forward(self, head_idx, rel_idx):
        head = self.E(head_idx)
        ent_dim = head.size(1)
        x = self.drop_in(self.bn_in(head)).unsqueeze(1)

        rel = self.R(rel_idx)
        core = (rel @ self.W.view(rel.size(1), -1)).view(-1, ent_dim, ent_dim)
        x = torch.bmm(x, self.drop_core(core)).squeeze(1)

        x = self.drop_out(self.bn_out(x))
        scores = x @ self.E.weight.t()
        return torch.sigmoid(scores)
