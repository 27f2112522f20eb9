import torch
import torch.nn.functional as F


class FAMO:
    """Fast adaptive multitask optimization: keeps a logit per task and
    rebalances the task weights from the observed loss decrease."""

    def __init__(self, n_tasks, device, gamma=0.01, w_lr=0.025, max_norm=1.0):
        self.n_tasks = n_tasks
        self.device = device
        self.min_losses = torch.zeros(n_tasks, device=device)
        self.w = torch.tensor([0.0] * n_tasks, device=device, requires_grad=True)
        self.w_opt = torch.optim.Adam([self.w], lr=w_lr, weight_decay=gamma)
        self.max_norm = max_norm
        self.prev_loss = None

    def set_min_losses(self, losses):
        self.min_losses = losses

    def get_weighted_loss(self, losses):
        self.prev_loss = losses
        z = F.softmax(self.w, -1)
        D = losses - self.min_losses + 1e-8
        c = (z / D).sum().detach()
        loss = (D.log() * z / c).sum()
        return loss

    def update(self, curr_loss):
        delta = (self.prev_loss - self.min_losses + 1e-8).log() - \
                (curr_loss - self.min_losses + 1e-8).log()
        with torch.enable_grad():
            d = torch.autograd.grad(F.softmax(self.w, -1), self.w,
                                    grad_outputs=delta.detach())[0]
        self.w_opt.zero_grad()
        self.w.grad = d
        self.w_opt.step()

    def backward(self, losses, shared_parameters=None, task_specific_parameters=None):
        loss = self.get_weighted_loss(losses=losses)
        if self.max_norm > 0 and shared_parameters is not None:
            torch.nn.utils.clip_grad_norm_(shared_parameters, self.max_norm)
        loss.backward()
        return loss, {"weights": F.softmax(self.w, -1).detach()}
