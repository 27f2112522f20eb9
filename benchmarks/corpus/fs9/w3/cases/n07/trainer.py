import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optimizer, cfg, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.cfg = cfg
        self.callbacks = list(callbacks)
        self.device_type = cfg["device"]
        self.amp_dtype = getattr(torch, cfg["amp_dtype"])
        self.scaler = torch.amp.GradScaler(self.device_type, enabled=cfg["use_amp"],
                                           init_scale=cfg["init_scale"])
        self.global_step = 0

    def _emit(self, name, **kw):
        for cb in self.callbacks:
            fn = getattr(cb, name, None)
            if fn is not None:
                fn(self, **kw)

    def training_step(self, x, y):
        with torch.autocast(self.device_type, dtype=self.amp_dtype, enabled=self.cfg["use_amp"]):
            logits = self.model(x)
            loss = F.cross_entropy(logits, y, label_smoothing=self.cfg["label_smoothing"])
        self.optimizer.zero_grad(set_to_none=True)
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)
        grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg["clip"])
        self.scaler.step(self.optimizer)
        self.scaler.update()
        self.global_step += 1
        self._emit("on_step_end", loss=loss.detach().float(), grad_norm=grad_norm)
        return loss

    def fit(self, loader, epochs):
        self.model.train()
        for epoch in range(epochs):
            for x, y in loader:
                self.training_step(x, y)
            self._emit("on_epoch_end", epoch=epoch)
