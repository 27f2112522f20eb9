import torch
import torch.nn as nn
import torch.nn.functional as F

PRIMITIVES = ["tanh", "relu", "sigmoid", "identity"]
STEPS = 4


def act(name, x):
    if name == "tanh":
        return torch.tanh(x)
    if name == "relu":
        return F.relu(x)
    if name == "sigmoid":
        return torch.sigmoid(x)
    return x


class DARTSCellSearch(nn.Module):
    def __init__(self, ninp, nhid):
        super().__init__()
        self.nhid = nhid
        self.W0 = nn.Parameter(torch.empty(ninp + nhid, 2 * nhid).uniform_(-0.04, 0.04))
        self._Ws = nn.ParameterList(
            [nn.Parameter(torch.empty(nhid, 2 * nhid).uniform_(-0.04, 0.04)) for _ in range(STEPS)])

    def cell(self, x, h_prev, probs):
        c0, h0 = torch.split(torch.cat([x, h_prev], -1).mm(self.W0), self.nhid, dim=-1)
        s0 = h_prev + c0.sigmoid() * (h0.tanh() - h_prev)
        states = [s0]
        offset = 0
        for i in range(STEPS):
            s = torch.zeros_like(s0)
            for j, h in enumerate(states):
                c, hh = torch.split(h.mm(self._Ws[i]), self.nhid, dim=-1)
                c = c.sigmoid()
                for k, name in enumerate(PRIMITIVES):
                    s = s + probs[offset + j, k] * (h + c * (act(name, hh) - h))
            offset += len(states)
            states.append(s)
        return torch.mean(torch.stack(states[-STEPS:], -1), -1)

    def forward(self, inputs, hidden, probs):
        h = hidden[0][0]
        outs = []
        for t in range(inputs.size(0)):
            h = self.cell(inputs[t], h, probs)
            outs.append(h)
        return torch.stack(outs), h.unsqueeze(0)


class RNNModelSearch(nn.Module):
    def __init__(self, ntoken, ninp, nhid):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = DARTSCellSearch(ninp, nhid)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid = nhid
        k = sum(i + 1 for i in range(STEPS))
        self.arch_weights = nn.Parameter(1e-3 * torch.randn(k, len(PRIMITIVES)))

    def weights(self):
        return [p for n, p in self.named_parameters() if n != "arch_weights"]

    def init_hidden(self, bsz):
        return [torch.zeros(1, bsz, self.nhid)]

    def forward(self, inp, hidden):
        emb = self.encoder(inp)
        probs = F.softmax(self.arch_weights, dim=-1)
        out, h = self.rnn(emb, hidden, probs)
        logits = self.decoder(out.view(-1, self.nhid))
        return logits, [h]

    def _loss(self, hidden, inp, target):
        logits, next_hidden = self(inp, hidden)
        return F.cross_entropy(logits, target), next_hidden
