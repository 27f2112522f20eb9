import torch
import torch.nn as nn


class fMRI_LSTM(nn.Module):
    def __init__(self, hidden_dim, input_dim, batch_size):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.lstm = nn.LSTM(input_dim, hidden_dim, batch_first=True)
        self.linear = nn.Linear(hidden_dim, 1)
        self.dropout = nn.Dropout(p=0.5)
        self.hidden = self.init_hidden(batch_size)

    def init_hidden(self, batch_size):
        return (torch.randn(1, batch_size, self.hidden_dim),
                torch.randn(1, batch_size, self.hidden_dim))

    def forward(self, x):
        lstm_out, self.hidden = self.lstm(x, self.hidden)
        last = self.dropout(lstm_out[:, -1, :])
        return torch.sigmoid(self.linear(last))
