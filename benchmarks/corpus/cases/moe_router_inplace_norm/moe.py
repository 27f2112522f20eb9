import torch
import torch.nn as nn


class LearnedRouter(nn.Module):
    def __init__(self, hidden_size, num_experts, top_k=2, normalize_p=1):
        super().__init__()
        self.layer = nn.Linear(hidden_size, num_experts, bias=False)
        self.top_k = top_k
        self.normalize_p = normalize_p

    def forward(self, x):
        scores = self.layer(x.view(-1, x.shape[-1])).softmax(dim=-1)
        expert_weights, expert_indices = torch.topk(scores, self.top_k, dim=-1)
        if self.normalize_p:
            expert_weights /= torch.norm(expert_weights, p=self.normalize_p, dim=-1, keepdim=True)
        return scores, expert_weights, expert_indices


class MoE(nn.Module):
    def __init__(self, hidden_size=32, ffn_size=64, num_experts=4, top_k=2):
        super().__init__()
        self.router = LearnedRouter(hidden_size, num_experts, top_k)
        self.experts = nn.ModuleList([
            nn.Sequential(nn.Linear(hidden_size, ffn_size), nn.GELU(), nn.Linear(ffn_size, hidden_size))
            for _ in range(num_experts)])

    def forward(self, x):
        tokens = x.view(-1, x.shape[-1])
        _, weights, indices = self.router(x)
        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            tok, slot = (indices == e).nonzero(as_tuple=True)
            if tok.numel():
                out = out.index_add(0, tok, weights[tok, slot].unsqueeze(-1) * expert(tokens[tok]))
        return out.view_as(x)
