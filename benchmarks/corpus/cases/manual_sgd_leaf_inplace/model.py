import torch.nn as nn


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp=32, nhid=32, nlayers=1):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers)
        self.decoder = nn.Linear(nhid, ntoken)

    def forward(self, input, hidden):
        emb = self.encoder(input)
        output, hidden = self.rnn(emb, hidden)
        return self.decoder(output).view(-1, self.decoder.out_features), hidden
