import torch
import torch.nn as nn


class LSTMLanguageModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, hidden_dim, num_layers, dropout=0.1):
        super().__init__()
        self.num_layers = num_layers
        self.hidden_dim = hidden_dim
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.drop = nn.Dropout(dropout)
        self.lstm = nn.LSTM(embed_dim, hidden_dim, num_layers, batch_first=True,
                            dropout=dropout if num_layers > 1 else 0.0)
        self.decoder = nn.Linear(hidden_dim, vocab_size)

    def init_hidden(self, batch_size, device=None):
        shape = (self.num_layers, batch_size, self.hidden_dim)
        return (torch.zeros(shape, device=device), torch.zeros(shape, device=device))

    def forward(self, tokens, hidden):
        emb = self.drop(self.embedding(tokens))
        output, hidden = self.lstm(emb, hidden)
        logits = self.decoder(self.drop(output))
        return logits, hidden
