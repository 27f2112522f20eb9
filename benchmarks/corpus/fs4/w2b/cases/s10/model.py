import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab, emb, hidden, dropout):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        self.emb_dropout = nn.Dropout(dropout)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)

    def forward(self, src):
        x = self.emb_dropout(self.embed(src))
        out, h = self.rnn(x)
        return out, h


class Decoder(nn.Module):
    def __init__(self, vocab, emb, hidden, dropout):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.hidden_dropout = nn.Dropout(dropout)
        self.output_layer = nn.Linear(hidden, vocab)

    def forward(self, trg_input, h):
        out, _ = self.rnn(self.embed(trg_input), h)
        return self.output_layer(self.hidden_dropout(out))


class Model(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.encoder = Encoder(cfg["vocab"], cfg["emb"], cfg["hidden"], cfg["dropout"])
        self.decoder = Decoder(cfg["vocab"], cfg["emb"], cfg["hidden"], cfg["dropout"])
        self.loss_function = nn.CrossEntropyLoss(ignore_index=0)

    def forward(self, src, trg_input):
        _, h = self.encoder(src)
        return self.decoder(trg_input, h)

    def get_loss_for_batch(self, src, trg):
        logits = self(src, trg[:, :-1])
        return self.loss_function(logits.reshape(-1, logits.size(-1)), trg[:, 1:].reshape(-1))
