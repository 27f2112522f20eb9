import torch


class BaseTrainer:
    def __init__(self, model, lr, grad_accum=1):
        self.model = model
        self.grad_accum = grad_accum
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.step = 0

    def _calculate_loss_and_log(self, batch, log):
        raise NotImplementedError

    def run_batch(self, batch, log=False):
        loss, log_dict = self._calculate_loss_and_log(batch, log)
        loss.div(self.grad_accum).backward()
        if (self.step + 1) % self.grad_accum == 0:
            self.optimizer.step()
            self.optimizer.zero_grad()
            self.after_step()
        self.step += 1
        return log_dict

    def after_step(self):
        pass
