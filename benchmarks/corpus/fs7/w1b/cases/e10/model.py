import torch
import torch.nn as nn

from layers import Embeddings, EncoderLayer


class Encoder(nn.Module):
    def __init__(self, num_layers, d_model, num_heads, ff_hidden_dim, input_vocab_size,
                 maximum_position_encoding=512, p=0.1, sinusoidal=True):
        super().__init__()
        self.embedding = Embeddings(d_model, input_vocab_size, maximum_position_encoding, p,
                                    sinusoidal=sinusoidal)
        self.enc_layers = nn.ModuleList(
            EncoderLayer(d_model, num_heads, ff_hidden_dim, p) for _ in range(num_layers))

    def forward(self, x):
        x = self.embedding(x)
        for layer in self.enc_layers:
            x = layer(x)
        return x


class TransformerClassifier(nn.Module):
    def __init__(self, num_layers, d_model, num_heads, conv_hidden_dim, input_vocab_size,
                 num_answers, sinusoidal=True):
        super().__init__()
        self.encoder = Encoder(num_layers, d_model, num_heads, conv_hidden_dim, input_vocab_size,
                               maximum_position_encoding=1000, sinusoidal=sinusoidal)
        self.dense = nn.Linear(d_model, num_answers)

    def forward(self, x):
        x = self.encoder(x)
        x, _ = torch.max(x, dim=1)
        return self.dense(x)
