import torch
import torch.nn as nn


class coRNNCell(nn.Module):
    def __init__(self, n_inp, n_hid, dt, gamma, epsilon):
        super().__init__()
        self.dt, self.gamma, self.epsilon = dt, gamma, epsilon
        self.i2h = nn.Linear(n_inp + n_hid + n_hid, n_hid)

    def forward(self, x, hy, hz):
        hz = hz + self.dt * (torch.tanh(self.i2h(torch.cat((x, hz, hy), 1))) - self.gamma * hy - self.epsilon * hz)
        hy = hy + self.dt * hz
        return hy, hz


class coRNN(nn.Module):
    def __init__(self, n_inp, n_hid, n_out, dt, gamma, epsilon, dropout=0.2):
        super().__init__()
        self.n_hid = n_hid
        self.cell = coRNNCell(n_inp, n_hid, dt, gamma, epsilon)
        self.drop = nn.Dropout(dropout)
        self.readout = nn.Linear(n_hid, n_out)

    def forward(self, x):
        hy = x.new_zeros(x.size(1), self.n_hid)
        hz = x.new_zeros(x.size(1), self.n_hid)
        for t in range(x.size(0)):
            hy, hz = self.cell(x[t], hy, hz)
        return self.readout(self.drop(hy))
