import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        self.device_type = "cpu"
        self.amp_dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(cfg["precision"])
        self.use_amp = self.amp_dtype is not None
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["wd"])
        self.scheduler = torch.optim.lr_scheduler.OneCycleLR(
            self.optimizer, max_lr=cfg["lr"], total_steps=cfg["steps"])
        self.scaler = torch.amp.GradScaler(
            self.device_type, init_scale=cfg["init_scale"],
            enabled=cfg["precision"] == "fp16")

    def train_step(self, x, y):
        self.model.train()
        with torch.autocast(self.device_type, dtype=self.amp_dtype, enabled=self.use_amp):
            pred = self.model(x)
            loss = F.smooth_l1_loss(pred.float(), y)
        self.optimizer.zero_grad(set_to_none=True)
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)
        gnorm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg["clip"])
        self.scaler.step(self.optimizer)
        self.scaler.update()
        self.scheduler.step()
        return loss.detach(), gnorm

    @torch.no_grad()
    def validate(self, x, y):
        self.model.eval()
        with torch.autocast(self.device_type, dtype=self.amp_dtype, enabled=self.use_amp):
            pred = self.model(x)
        return F.mse_loss(pred.float(), y).item()
