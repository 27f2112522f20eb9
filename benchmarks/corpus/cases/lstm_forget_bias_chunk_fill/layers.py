import torch
import torch.nn as nn


class LSTM(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers=1, bidirectional=True, dropout=0.2):
        super().__init__()
        self.rnn = nn.LSTM(input_size, hidden_size, num_layers=num_layers,
                           bidirectional=bidirectional, batch_first=True)
        self.dropout = nn.Dropout(dropout)
        self.reset_params()

    def reset_params(self):
        for i in range(self.rnn.num_layers):
            nn.init.orthogonal_(getattr(self.rnn, f"weight_hh_l{i}"))
            nn.init.kaiming_normal_(getattr(self.rnn, f"weight_ih_l{i}"))
            nn.init.constant_(getattr(self.rnn, f"bias_hh_l{i}"), val=0)
            nn.init.constant_(getattr(self.rnn, f"bias_ih_l{i}"), val=0)
            # forget-gate bias starts at 1
            _, forget_bias, _, _ = getattr(self.rnn, f"bias_hh_l{i}").chunk(4)
            forget_bias.fill_(1)

    def forward(self, x):
        out, _ = self.rnn(self.dropout(x))
        return out
