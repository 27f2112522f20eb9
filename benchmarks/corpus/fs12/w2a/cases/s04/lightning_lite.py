import torch


class LiteModule(torch.nn.Module):
    def configure_optimizers(self):
        raise NotImplementedError

    def training_step(self, batch, batch_idx, optimizer_idx):
        raise NotImplementedError

    def log(self, name, value):
        self._logged = getattr(self, "_logged", {})
        self._logged[name] = value.item() if torch.is_tensor(value) else float(value)


class Trainer:
    def __init__(self, max_epochs=1, log_every_n_steps=10):
        self.max_epochs = max_epochs
        self.log_every_n_steps = log_every_n_steps
        self.global_step = 0

    def _run_optimizer(self, module, optimizer, batch, batch_idx, opt_idx):
        loss = module.training_step(batch, batch_idx, opt_idx)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        return loss.detach()

    def fit(self, module, loader):
        optimizers = module.configure_optimizers()
        if not isinstance(optimizers, (list, tuple)):
            optimizers = [optimizers]
        module.train()
        for epoch in range(self.max_epochs):
            for batch_idx, batch in enumerate(loader):
                for opt_idx, optimizer in enumerate(optimizers):
                    self._run_optimizer(module, optimizer, batch, batch_idx, opt_idx)
                self.global_step += 1
                if self.global_step % self.log_every_n_steps == 0:
                    logged = "  ".join(f"{k} {v:.4f}" for k, v in module._logged.items())
                    print(f"epoch {epoch} step {self.global_step:4d}  {logged}")
