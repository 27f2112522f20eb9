"""An LSTM language model trained with truncated BPTT, as in pytorch/examples
word_language_model: batchify a token stream, cut it into bptt-long chunks, repackage the hidden
state (detach) between chunks, clip the gradient norm, and apply a plain SGD update by hand."""

import math

import torch
from torch import nn


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.2, tie_weights=True):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.nhid, self.nlayers = nhid, nlayers
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output).view(-1, self.decoder.out_features)
        return torch.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i: i + seq_len], source[i + 1: i + 1 + seq_len].view(-1)


torch.manual_seed(0)
ntokens, bptt, batch_size, lr, clip = 50, 16, 4, 20.0, 0.25
corpus = torch.randint(0, ntokens, (4 * 16 * 5 + 4,))
train_data = batchify(corpus, batch_size)
model = RNNModel(ntokens, 32, 32, 2)
criterion = nn.NLLLoss()

for epoch in range(1, 3):
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(batch_size)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i, bptt)
        # Starting each batch, we detach the hidden state from how it was previously produced.
        # If we didn't, the model would try backpropagating all the way to start of the dataset.
        model.zero_grad()
        hidden = repackage_hidden(hidden)
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()
    batches = batch + 1
    print(f"epoch {epoch} batches {batches} loss {total_loss / batches:.4f} ppl {math.exp(total_loss / batches):.2f}")

model.eval()
with torch.no_grad():
    hidden = model.init_hidden(batch_size)
    output, hidden = model(train_data[:bptt], hidden)
    print(f"eval loss {criterion(output, train_data[1:bptt + 1].reshape(-1)).item():.4f}")
