import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attention_vector = nn.Parameter(torch.randn(dim) * 0.05)

    def forward(self, inputs):
        weights = F.softmax(inputs.matmul(self.attention_vector), dim=1)
        return (inputs * weights.unsqueeze(-1)).sum(dim=1)


class TorchMoji(nn.Module):
    def __init__(self, nb_classes, nb_tokens=100, embed_dim=32, hidden=32, return_tensor=True):
        super().__init__()
        self.embed = nn.Embedding(nb_tokens, embed_dim)
        self.lstm_0 = nn.LSTM(embed_dim, hidden, batch_first=True, bidirectional=True)
        self.lstm_1 = nn.LSTM(2 * hidden, hidden, batch_first=True, bidirectional=True)
        self.attention_layer = Attention(4 * hidden + embed_dim)
        self.output_layer = nn.Linear(4 * hidden + embed_dim, nb_classes)
        self.return_tensor = return_tensor

    def forward(self, input_seqs):
        x = torch.tanh(self.embed(input_seqs))
        lstm_0_output, _ = self.lstm_0(x)
        lstm_1_output, _ = self.lstm_1(lstm_0_output)
        x = torch.cat((lstm_1_output, lstm_0_output, x), dim=2)
        x = self.attention_layer(x)
        outputs = self.output_layer(x)
        if self.return_tensor:
            outputs = outputs.data
        return outputs
