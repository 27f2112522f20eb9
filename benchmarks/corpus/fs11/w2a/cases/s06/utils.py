import torch


class Trainer:
    def __init__(self, opt, model, guidance, text_embeddings, lr=1e-3):
        self.opt = opt
        self.model = model
        self.guidance = guidance
        self.text_z = text_embeddings
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.99), eps=1e-15)
        self.scaler = torch.amp.GradScaler("cpu", enabled=opt["fp16"])
        self.global_step = 0

    def train_step(self, data):
        pred_rgb, opacity = self.model.render(data["pose_shift"])
        loss = self.guidance.train_step(self.text_z, pred_rgb)
        if self.opt["lambda_opacity"] > 0:
            loss_opacity = (opacity ** 2).mean()
            loss = loss + self.opt["lambda_opacity"] * loss_opacity
        return loss

    def train_one_epoch(self, loader):
        self.model.train()
        total_loss = 0.0
        for data in loader:
            self.global_step += 1
            self.optimizer.zero_grad()
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.opt["fp16"]):
                loss = self.train_step(data)
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
            total_loss += loss.item()
        return total_loss / len(loader)
