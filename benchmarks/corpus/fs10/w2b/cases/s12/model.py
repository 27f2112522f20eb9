import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphConv(nn.Module):
    def __init__(self, in_dim, out_dim, act=F.relu):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_dim, out_dim))
        nn.init.xavier_uniform_(self.weight)
        self.act = act

    def forward(self, x, adj):
        return self.act(adj @ (x @ self.weight))


class VGRNN(nn.Module):
    def __init__(self, x_dim, h_dim, z_dim, eps=1e-10):
        super().__init__()
        self.eps = eps
        self.phi_x = nn.Sequential(nn.Linear(x_dim, h_dim), nn.ReLU())
        self.phi_z = nn.Sequential(nn.Linear(z_dim, h_dim), nn.ReLU())
        self.enc = GraphConv(2 * h_dim, h_dim)
        self.enc_mean = GraphConv(h_dim, z_dim, act=lambda t: t)
        self.enc_std = GraphConv(h_dim, z_dim, act=F.softplus)
        self.prior = nn.Sequential(nn.Linear(h_dim, h_dim), nn.ReLU())
        self.prior_mean = nn.Linear(h_dim, z_dim)
        self.prior_std = nn.Sequential(nn.Linear(h_dim, z_dim), nn.Softplus())
        self.rnn = nn.GRUCell(2 * h_dim, h_dim)
        self.h_dim = h_dim

    def _kld_gauss(self, mean_1, std_1, mean_2, std_2):
        num_nodes = mean_1.size(0)
        kld = (2 * torch.log(std_2 + self.eps) - 2 * torch.log(std_1 + self.eps)
               + (std_1.pow(2) + (mean_1 - mean_2).pow(2)) / std_2.pow(2) - 1)
        return (0.5 / num_nodes) * kld.sum()

    def _nll_bernoulli(self, logits, target_adj):
        pos_weight = (target_adj.numel() - target_adj.sum()) / target_adj.sum()
        return F.binary_cross_entropy_with_logits(logits, target_adj, pos_weight=pos_weight, reduction="sum")

    def forward(self, xs, adjs, norm_adjs):
        num_nodes = xs[0].size(0)
        h = xs[0].new_zeros(num_nodes, self.h_dim)
        kld_loss, nll_loss = 0.0, 0.0
        for x, adj, norm_adj in zip(xs, adjs, norm_adjs):
            phi_x_t = self.phi_x(x)
            enc_t = self.enc(torch.cat([phi_x_t, h], dim=1), norm_adj)
            enc_mean_t = self.enc_mean(enc_t, norm_adj)
            enc_std_t = self.enc_std(enc_t, norm_adj)
            prior_t = self.prior(h)
            prior_mean_t = self.prior_mean(prior_t)
            prior_std_t = self.prior_std(prior_t)
            z_t = enc_mean_t + torch.randn_like(enc_std_t) * enc_std_t
            phi_z_t = self.phi_z(z_t)
            logits = z_t @ z_t.t()
            h = self.rnn(torch.cat([phi_x_t, phi_z_t], dim=1), h)
            kld_loss = kld_loss + self._kld_gauss(enc_mean_t, enc_std_t, prior_mean_t, prior_std_t)
            nll_loss = nll_loss + self._nll_bernoulli(logits, adj)
        return kld_loss, nll_loss, h
