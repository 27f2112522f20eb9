import torch


class GradualUnfreezeTrainer:
    def __init__(self, model, base_lr, decay, unfreeze_every):
        self.model = model
        self.base_lr = base_lr
        self.decay = decay
        self.unfreeze_every = unfreeze_every
        self.stages = model.unfreezing_stages()
        for p in model.parameters():
            p.requires_grad_(False)
        self.n_active = 0
        self.optimizer = None
        self._unfreeze_next()

    def _unfreeze_next(self):
        if self.n_active >= len(self.stages):
            return
        params = self.stages[self.n_active]
        for p in params:
            p.requires_grad_(True)
        group = {"params": params, "lr": self.base_lr * (self.decay ** self.n_active)}
        if self.optimizer is None:
            self.optimizer = torch.optim.AdamW([group], weight_decay=0.01)
        else:
            self.optimizer.add_param_group(group)
        self.n_active += 1

    def step(self, batch, step_idx):
        if step_idx > 0 and step_idx % self.unfreeze_every == 0:
            self._unfreeze_next()
        self.model.train()
        loss, _ = self.model(**batch)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        return loss.item()
