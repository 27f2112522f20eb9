import torch
from torch import nn
import torch.nn.functional as F


class EncoderRNN(nn.Module):
    def __init__(self, vocab_size, hidden_size, dropout_p):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.input_dropout = nn.Dropout(dropout_p)
        self.rnn = nn.GRU(hidden_size, hidden_size, batch_first=True)

    def forward(self, src):
        embedded = self.input_dropout(self.embedding(src))
        return self.rnn(embedded)


class DecoderRNN(nn.Module):
    def __init__(self, vocab_size, hidden_size, dropout_p):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.input_dropout = nn.Dropout(dropout_p)
        self.rnn = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward(self, tgt_in, hidden):
        embedded = self.input_dropout(self.embedding(tgt_in))
        output, hidden = self.rnn(embedded, hidden)
        return F.log_softmax(self.out(output), dim=-1), hidden


class Seq2seq(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, src, tgt_in):
        _, hidden = self.encoder(src)
        log_probs, _ = self.decoder(tgt_in, hidden)
        return log_probs
