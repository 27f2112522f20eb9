import torch
import torch.nn as nn


class TiedLSTMLM(nn.Module):
    def __init__(self, vocab_size, emb_dim=32, n_layers=2, dropout=0.1, pad_idx=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=pad_idx)
        self.drop = nn.Dropout(dropout)
        self.rnn = nn.LSTM(emb_dim, emb_dim, n_layers, batch_first=True, dropout=dropout)
        self.decoder = nn.Linear(emb_dim, vocab_size)
        self.decoder.weight = self.embedding.weight
        self.pad_idx = pad_idx
        self.init_weights()

    def init_weights(self, scale=0.1):
        with torch.no_grad():
            self.embedding.weight.uniform_(-scale, scale)
            self.embedding.weight[self.pad_idx].zero_()
            self.decoder.bias.zero_()

    def forward(self, tokens):
        out, _ = self.rnn(self.drop(self.embedding(tokens)))
        return self.decoder(self.drop(out))
