import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call


class SineRegressor(nn.Module):
    def __init__(self, hidden=40):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


class MAML:
    def __init__(self, model, inner_lr=0.01, inner_steps=2, first_order=False):
        self.model = model
        self.inner_lr = inner_lr
        self.inner_steps = inner_steps
        self.first_order = first_order

    def adapt(self, x_support, y_support):
        params = dict(self.model.named_parameters())
        for _ in range(self.inner_steps):
            pred = functional_call(self.model, params, (x_support,))
            loss = F.mse_loss(pred, y_support)
            grads = torch.autograd.grad(loss, list(params.values()), create_graph=not self.first_order)
            params = {name: p - self.inner_lr * g for (name, p), g in zip(params.items(), grads)}
        return params

    def query_loss(self, params, x_query, y_query):
        pred = functional_call(self.model, params, (x_query,))
        return F.mse_loss(pred, y_query)
