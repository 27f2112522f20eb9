import torch
import torch.nn.functional as F
from torch.func import functional_call


class MAML:
    def __init__(self, model, inner_lr=0.01, inner_steps=1, meta_lr=1e-3, first_order=False):
        self.model = model
        self.inner_lr = inner_lr
        self.inner_steps = inner_steps
        self.first_order = first_order
        self.meta_opt = torch.optim.Adam(model.parameters(), lr=meta_lr)

    def adapt(self, x_spt, y_spt):
        params = dict(self.model.named_parameters())
        for _ in range(self.inner_steps):
            loss = F.mse_loss(functional_call(self.model, params, (x_spt,)), y_spt)
            grads = torch.autograd.grad(loss, list(params.values()),
                                        create_graph=not self.first_order)
            params = {name: p - self.inner_lr * g
                      for (name, p), g in zip(params.items(), grads)}
        return params

    def meta_step(self, tasks):
        self.meta_opt.zero_grad()
        total = 0.0
        for x_spt, y_spt, x_qry, y_qry in tasks:
            fast_weights = self.adapt(x_spt, y_spt)
            qry_loss = F.mse_loss(functional_call(self.model, fast_weights, (x_qry,)), y_qry)
            (qry_loss / len(tasks)).backward()
            total += qry_loss.item()
        self.meta_opt.step()
        return total / len(tasks)

    def evaluate(self, tasks):
        losses = []
        for x_spt, y_spt, x_qry, y_qry in tasks:
            fast_weights = self.adapt(x_spt, y_spt)
            with torch.no_grad():
                pred = functional_call(self.model, fast_weights, (x_qry,))
            losses.append(F.mse_loss(pred, y_qry).item())
        return sum(losses) / len(losses)
