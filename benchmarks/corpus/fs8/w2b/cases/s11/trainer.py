import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optimizer, args):
        self.model = model
        self.optimizer = optimizer
        self.args = args
        self.scaler = torch.amp.GradScaler("cpu", enabled=args.amp)

    def train_one_epoch(self, loader, epoch):
        self.model.train()
        running = 0.0
        for step, (x, y) in enumerate(loader):
            self.optimizer.zero_grad(set_to_none=True)
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.args.amp):
                pred = self.model(x)
                loss = F.mse_loss(pred.float(), y)

            self.scaler.scale(loss).backward()
            if self.args.grad_max_norm > 0:
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args.grad_max_norm)
            self.scaler.step(self.optimizer)
            self.scaler.update()
            running += loss.item()
        print(f"epoch {epoch}: mse {running / len(loader):.5f}")
