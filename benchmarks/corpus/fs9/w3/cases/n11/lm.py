import torch
import torch.nn as nn


class CharLSTM(nn.Module):
    def __init__(self, vocab, emb=32, hidden=64, layers=2, dropout=0.1, tie=False):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hidden, layers, batch_first=True, dropout=dropout)
        self.proj = nn.Linear(hidden, emb)
        self.decoder = nn.Linear(emb, vocab)
        if tie:
            self.decoder.weight = self.embed.weight
        self.hidden_size, self.layers = hidden, layers

    def init_hidden(self, bsz):
        w = next(self.parameters())
        return (w.new_zeros(self.layers, bsz, self.hidden_size),
                w.new_zeros(self.layers, bsz, self.hidden_size))

    def forward(self, tokens, hidden):
        out, hidden = self.rnn(self.embed(tokens), hidden)
        return self.decoder(self.proj(out)), hidden


def repackage(hidden):
    if isinstance(hidden, torch.Tensor):
        return hidden.detach()
    return tuple(repackage(h) for h in hidden)
