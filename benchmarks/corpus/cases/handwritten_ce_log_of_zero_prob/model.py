import torch
import torch.nn as nn


class DecomposableAttention(nn.Module):
    def __init__(self, glove, n_labels=3, project_dim=64):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(glove, freeze=True)
        self.project = nn.Linear(glove.shape[1], project_dim)
        self.compare = nn.Sequential(nn.Linear(2 * project_dim, project_dim), nn.ReLU())
        self.aggregate = nn.Linear(2 * project_dim, n_labels)

    def forward(self, premise, hypothesis):
        a = self.project(self.embed(premise))
        b = self.project(self.embed(hypothesis))
        attn = torch.softmax(a @ b.transpose(1, 2), dim=-1)
        beta = attn @ b
        alpha = attn.transpose(1, 2).softmax(dim=-1) @ a
        v1 = self.compare(torch.cat([a, beta], dim=-1)).sum(1)
        v2 = self.compare(torch.cat([b, alpha], dim=-1)).sum(1)
        return self.aggregate(torch.cat([v1, v2], dim=-1))
