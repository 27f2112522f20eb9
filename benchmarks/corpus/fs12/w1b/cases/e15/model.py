import torch
import torch.nn as nn


class CharLM(nn.Module):
    def __init__(self, vocab, emb=32, hidden=64, layers=2, dropout=0.1):
        super().__init__()
        self.hidden, self.layers = hidden, layers
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hidden, layers, dropout=dropout)
        self.drop = nn.Dropout(dropout)
        self.dec = nn.Linear(hidden, vocab)

    def init_state(self, bsz):
        return torch.zeros(2, self.layers, bsz, self.hidden)

    def forward(self, tokens, state):
        out, (h, c) = self.rnn(self.drop(self.emb(tokens)), (state[0], state[1]))
        logits = self.dec(self.drop(out))
        return logits, torch.stack((h, c))
