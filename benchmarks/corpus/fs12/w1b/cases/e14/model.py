from collections import OrderedDict

import torch.nn as nn
import torch.nn.functional as F


class MetaLinear(nn.Linear):
    def forward(self, x, params=None):
        if params is None:
            return super().forward(x)
        return F.linear(x, params["weight"], params["bias"])


class MetaMLP(nn.Module):
    def __init__(self, in_dim, hidden, n_way):
        super().__init__()
        self.l1 = MetaLinear(in_dim, hidden)
        self.l2 = MetaLinear(hidden, hidden)
        self.head = MetaLinear(hidden, n_way)

    def meta_named_parameters(self):
        return self.named_parameters()

    @staticmethod
    def _sub(params, prefix):
        if params is None:
            return None
        return OrderedDict((k[len(prefix) + 1:], v) for k, v in params.items() if k.startswith(prefix + "."))

    def forward(self, x, params=None):
        x = F.relu(self.l1(x, self._sub(params, "l1")))
        x = F.relu(self.l2(x, self._sub(params, "l2")))
        return self.head(x, self._sub(params, "head"))
