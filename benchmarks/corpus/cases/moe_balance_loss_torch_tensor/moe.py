import torch
import torch.nn as nn
import torch.nn.functional as F


class NaiveGate(nn.Module):
    def __init__(self, d_model, num_expert, top_k=2):
        super().__init__()
        self.gate = nn.Linear(d_model, num_expert)
        self.top_k = top_k
        self.loss = None

    def set_loss(self, loss):
        self.loss = loss

    def get_loss(self, clear=True):
        loss = self.loss
        if clear:
            self.loss = None
        return loss

    def forward(self, x):
        logits = self.gate(x)
        probs = F.softmax(logits, dim=-1)
        top_val, top_idx = torch.topk(probs, self.top_k, dim=-1)
        # switch-style load balancing: fraction routed * mean gate prob
        routed = F.one_hot(top_idx[:, 0], probs.shape[-1]).float().mean(0)
        self.set_loss((routed * probs.mean(0)).sum() * probs.shape[-1])
        return top_val, top_idx


class MoELayer(nn.Module):
    def __init__(self, d_model=16, num_expert=4, d_hidden=32):
        super().__init__()
        self.gate = NaiveGate(d_model, num_expert)
        self.experts = nn.ModuleList(
            [nn.Sequential(nn.Linear(d_model, d_hidden), nn.GELU(), nn.Linear(d_hidden, d_model))
             for _ in range(num_expert)])

    def forward(self, x):
        top_val, top_idx = self.gate(x)
        expert_out = torch.stack([expert(x) for expert in self.experts], dim=1)
        picked = expert_out.gather(1, top_idx[..., None].expand(-1, -1, x.shape[-1]))
        return x + (top_val[..., None] * picked).sum(dim=1)


class TinyMoEModel(nn.Module):
    def __init__(self, vocab=50, d_model=16, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList([MoELayer(d_model) for _ in range(n_layers)])
        self.out = nn.Linear(d_model, vocab)

    def forward(self, tokens):
        h = self.embed(tokens)
        for layer in self.layers:
            h = layer(h)
        return self.out(h)
