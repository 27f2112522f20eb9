import math

import torch
from torch.nn import LSTM


def gcn_norm(edge_index, edge_weight, num_nodes, improved=False, add_self_loops=True):
    if edge_weight is None:
        edge_weight = torch.ones(edge_index.size(1))
    if add_self_loops:
        loop = torch.arange(num_nodes)
        edge_index = torch.cat([edge_index, torch.stack([loop, loop])], dim=1)
        fill = 2.0 if improved else 1.0
        edge_weight = torch.cat([edge_weight, torch.full((num_nodes,), fill)])
    row, col = edge_index
    deg = torch.zeros(num_nodes).scatter_add_(0, col, edge_weight)
    deg_inv_sqrt = deg.pow(-0.5)
    deg_inv_sqrt[deg_inv_sqrt == float("inf")] = 0
    return edge_index, deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]


class GCNConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels, improved=False, normalize=True,
                 add_self_loops=True, bias=True):
        super().__init__()
        self.improved = improved
        self.normalize = normalize
        self.add_self_loops = add_self_loops
        self.weight = torch.nn.Parameter(torch.empty(in_channels, out_channels))
        if bias:
            self.bias = torch.nn.Parameter(torch.zeros(out_channels))
        else:
            self.register_parameter("bias", None)
        bound = math.sqrt(6.0 / (in_channels + out_channels))
        torch.nn.init.uniform_(self.weight, -bound, bound)

    def forward(self, x, edge_index, edge_weight=None, weight=None):
        if weight is None:
            weight = self.weight
        if self.normalize:
            edge_index, edge_weight = gcn_norm(edge_index, edge_weight, x.size(0),
                                               self.improved, self.add_self_loops)
        elif edge_weight is None:
            edge_weight = torch.ones(edge_index.size(1))
        h = x @ weight
        row, col = edge_index
        out = torch.zeros_like(h).index_add_(0, col, h[row] * edge_weight.unsqueeze(-1))
        if self.bias is not None:
            out = out + self.bias
        return out


class EvolveGCNO(torch.nn.Module):
    def __init__(self, in_channels, improved=False, normalize=True, add_self_loops=True):
        super().__init__()
        self.in_channels = in_channels
        self.improved = improved
        self.normalize = normalize
        self.add_self_loops = add_self_loops
        self._create_layers()

    def _create_layers(self):
        self.recurrent_layer = LSTM(input_size=self.in_channels,
                                    hidden_size=self.in_channels,
                                    num_layers=1)
        self.conv_layer = GCNConv(in_channels=self.in_channels,
                                  out_channels=self.in_channels,
                                  improved=self.improved,
                                  normalize=self.normalize,
                                  add_self_loops=self.add_self_loops,
                                  bias=False)

    def forward(self, X, edge_index, edge_weight=None):
        W = self.conv_layer.weight[None, :, :]
        W, _ = self.recurrent_layer(W)
        self.conv_layer.weight = torch.nn.Parameter(W.squeeze())
        X = self.conv_layer(X, edge_index, edge_weight)
        return X
