import torch
import torch.nn as nn
import torch.nn.functional as F


class TokenChoiceRouter(nn.Module):
    def __init__(self, dim, num_experts, top_k):
        super().__init__()
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.num_experts = num_experts
        self.top_k = top_k

    def forward(self, x, expert_bias):
        scores = torch.sigmoid(self.gate(x))
        _, selected = torch.topk(scores + expert_bias, k=self.top_k, dim=-1)
        top_scores = scores.gather(-1, selected)
        top_scores = top_scores / top_scores.sum(-1, keepdim=True)
        return top_scores, selected


class Expert(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class MoE(nn.Module):
    """Token-choice MoE with auxiliary-loss-free load balancing (per-expert routing bias)."""

    def __init__(self, dim, hidden, num_experts=4, top_k=2, load_balance_coeff=1e-1):
        super().__init__()
        self.router = TokenChoiceRouter(dim, num_experts, top_k)
        self.experts = nn.ModuleList([Expert(dim, hidden) for _ in range(num_experts)])
        self.load_balance_coeff = load_balance_coeff
        self.register_buffer("expert_bias", torch.zeros(num_experts), persistent=False)
        self.register_buffer("tokens_per_expert", torch.zeros(num_experts), persistent=False)

    def forward(self, x):
        B, T, D = x.shape
        flat = x.reshape(-1, D)
        top_scores, selected = self.router(flat, self.expert_bias)
        counts = torch.bincount(selected.reshape(-1), minlength=len(self.experts))
        with torch.no_grad():
            self.tokens_per_expert.add_(counts.float())
        out = torch.zeros_like(flat)
        for e, expert in enumerate(self.experts):
            token_idx, slot = torch.nonzero(selected == e, as_tuple=True)
            if token_idx.numel() == 0:
                continue
            y = expert(flat[token_idx]) * top_scores[token_idx, slot, None]
            out = out.index_add(0, token_idx, y)
        return out.view(B, T, D)


@torch.no_grad()
def update_expert_bias(moe: MoE):
    tpe = moe.tokens_per_expert
    delta = moe.load_balance_coeff * torch.sign(tpe.mean() - tpe)
    moe.expert_bias.add_(delta - delta.mean())
    tpe.zero_()
