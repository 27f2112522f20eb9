import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import LSTM


class BiDAF(nn.Module):
    def __init__(self, vocab_size=200, emb_dim=32, hidden=24):
        super().__init__()
        self.word_emb = nn.Embedding(vocab_size, emb_dim)
        self.context_lstm = LSTM(emb_dim, hidden)
        self.att_weight_c = nn.Linear(hidden * 2, 1)
        self.att_weight_q = nn.Linear(hidden * 2, 1)
        self.modeling_lstm = LSTM(hidden * 8, hidden)
        self.p1 = nn.Linear(hidden * 2, 1)
        self.p2 = nn.Linear(hidden * 2, 1)

    def forward(self, c_ids, q_ids):
        c = self.context_lstm(self.word_emb(c_ids))
        q = self.context_lstm(self.word_emb(q_ids))
        s = self.att_weight_c(c) + self.att_weight_q(q).transpose(1, 2) + c @ q.transpose(1, 2)
        c2q = F.softmax(s, dim=2) @ q
        b = F.softmax(s.max(dim=2).values, dim=1).unsqueeze(1)
        q2c = (b @ c).expand(-1, c.size(1), -1)
        g = torch.cat([c, c2q, c * c2q, c * q2c], dim=-1)
        m = self.modeling_lstm(g)
        return self.p1(m).squeeze(-1), self.p2(m).squeeze(-1)
