import torch
import torch.nn.functional as F


class AmpTrainer:
    def __init__(self, model, optimizer, scheduler, device, amp_dtype=torch.float16, clip_grad=1.0):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.device = device
        self.amp_dtype = amp_dtype
        self.clip_grad = clip_grad
        self.scaler = torch.amp.GradScaler(device.type, init_scale=2.0 ** 12)

    def train_one_epoch(self, loader):
        self.model.train()
        stats = []
        for images, targets in loader:
            images, targets = images.to(self.device), targets.to(self.device)
            with torch.autocast(device_type=self.device.type, dtype=self.amp_dtype):
                logits = self.model(images)
                loss = F.cross_entropy(logits, targets, label_smoothing=0.1)

            self.optimizer.zero_grad(set_to_none=True)
            self.scaler.scale(loss).backward()
            self.scaler.unscale_(self.optimizer)
            grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip_grad)
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.scheduler.step()
            stats.append((loss.item(), grad_norm.item(), self.scaler.get_scale()))
        return stats

    @torch.inference_mode()
    def evaluate(self, loader):
        self.model.eval()
        correct = total = 0
        for images, targets in loader:
            images, targets = images.to(self.device), targets.to(self.device)
            with torch.autocast(device_type=self.device.type, dtype=self.amp_dtype):
                logits = self.model(images)
            correct += (logits.argmax(-1) == targets).sum().item()
            total += targets.numel()
        return correct / total
