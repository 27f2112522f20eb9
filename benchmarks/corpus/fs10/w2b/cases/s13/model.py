import torch
import torch.nn as nn


class MaskedLightGCN(nn.Module):
    """LightGCN whose normalized adjacency is gated by a trainable edge mask (graph lottery ticket)."""

    def __init__(self, n_users, n_items, interactions, embedding_size=16, n_layers=2, prune_ratio=0.2):
        super().__init__()
        self.n_users, self.n_items = n_users, n_items
        self.n_layers = n_layers
        self.prune_ratio = prune_ratio
        self.user_embedding = nn.Embedding(n_users, embedding_size)
        self.item_embedding = nn.Embedding(n_items, embedding_size)
        nn.init.xavier_uniform_(self.user_embedding.weight)
        nn.init.xavier_uniform_(self.item_embedding.weight)
        self.register_buffer("norm_adj", self._build_norm_adj(interactions))
        self.adj_mask_train = nn.Parameter(torch.ones_like(self.norm_adj))
        self.register_buffer("adj_mask_fixed", (self.norm_adj != 0).float())

    def _build_norm_adj(self, interactions):
        n = self.n_users + self.n_items
        adj = torch.zeros(n, n)
        adj[interactions[:, 0], self.n_users + interactions[:, 1]] = 1.0
        adj = adj + adj.t()
        deg = adj.sum(1).clamp(min=1.0)
        d = deg.pow(-0.5)
        return d[:, None] * adj * d[None, :]

    def update_norm_adj(self):
        mask = self.adj_mask_train.detach() * self.adj_mask_fixed
        alive = mask[self.adj_mask_fixed.bool()]
        k = int(alive.numel() * self.prune_ratio)
        adj_thre = alive.abs().kthvalue(max(k, 1)).values
        ones = torch.ones_like(self.adj_mask_train)
        zeros = torch.zeros_like(self.adj_mask_train)
        adj_mask = torch.where(mask.abs() > adj_thre, ones, zeros)
        self.adj_mask_fixed.copy_(adj_mask)
        self.adj_mask_train = torch.nn.Parameter(adj_mask, requires_grad=True)

    def forward(self):
        adj = self.norm_adj * self.adj_mask_train * self.adj_mask_fixed
        all_emb = torch.cat([self.user_embedding.weight, self.item_embedding.weight], dim=0)
        layers = [all_emb]
        for _ in range(self.n_layers):
            all_emb = adj @ all_emb
            layers.append(all_emb)
        out = torch.stack(layers, dim=1).mean(dim=1)
        return out[: self.n_users], out[self.n_users:]

    def calculate_loss(self, users, pos, neg, reg_weight=1e-4, mask_l1=1e-3):
        u_all, i_all = self.forward()
        u, p, n = u_all[users], i_all[pos], i_all[neg]
        pos_scores = (u * p).sum(-1)
        neg_scores = (u * n).sum(-1)
        bpr = -torch.nn.functional.logsigmoid(pos_scores - neg_scores).mean()
        reg = reg_weight * (u.pow(2).sum() + p.pow(2).sum() + n.pow(2).sum()) / users.size(0)
        sparsity = mask_l1 * self.adj_mask_train.abs().sum() / self.adj_mask_fixed.sum()
        return bpr + reg + sparsity
