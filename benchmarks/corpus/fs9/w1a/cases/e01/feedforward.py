import torch
from torch import nn


_ACTIVATIONS = {
    "relu": nn.ReLU,
    "elu": nn.ELU,
    "tanh": nn.Tanh,
    "shifted_softplus": nn.Softplus,
}


def _as_list(value, n, name):
    if value is None or isinstance(value, (bool, float, int, str)):
        return [value] * n
    if len(value) != n:
        raise ValueError(f"{name} must have {n} entries, got {len(value)}")
    return list(value)


class FeedForward(nn.Module):
    """Stack of Linear layers with optional activation, dropout and batchnorm."""

    def __init__(self, layers, activation="relu", dropout=None, batchnorm=False,
                 last_layer_activation=False):
        super().__init__()
        n_layers = len(layers) - 1
        activation = _as_list(activation, n_layers, "activation")
        dropout = _as_list(dropout, n_layers, "dropout")
        batchnorm = _as_list(batchnorm, n_layers, "batchnorm")

        modules = []
        for i in range(n_layers):
            modules.append(nn.Linear(layers[i], layers[i + 1]))
            is_last = i == n_layers - 1
            if is_last and not last_layer_activation:
                continue
            if activation[i] is not None:
                modules.append(_ACTIVATIONS[activation[i]]())
            if dropout[i] is not None and dropout[i] > 0:
                modules.append(nn.Dropout(p=dropout[i], inplace=True))
            if batchnorm[i]:
                modules.append(nn.BatchNorm1d(layers[i + 1]))
        self.nn = nn.Sequential(*modules)
        self.in_features = layers[0]
        self.out_features = layers[-1]

    def forward(self, x):
        return self.nn(x)
