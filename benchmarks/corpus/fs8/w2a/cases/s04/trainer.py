import torch

from losses import policy_gradient_loss


class RLTrainer:
    def __init__(self, model, config):
        self.model = model
        self.config = config
        self.loss_fn = policy_gradient_loss
        self.optimizer = torch.optim.AdamW(
            model.parameters(), lr=config["lr"], weight_decay=config["weight_decay"]
        )
        self.step = 0

    def forward_backward(self, microbatch, num_microbatches):
        self.model.train()
        self.optimizer.zero_grad()
        loss = self.loss_fn(self.model, microbatch, 1.0 / num_microbatches)
        loss.backward()
        return {"loss": loss.item() * num_microbatches}

    def optim_step(self):
        grad_norm = torch.nn.utils.clip_grad_norm_(
            self.model.parameters(), self.config["max_grad_norm"]
        )
        self.optimizer.step()
        self.step += 1
        return {"grad_norm": grad_norm.item(), "step": self.step}
