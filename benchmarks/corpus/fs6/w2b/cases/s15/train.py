import torch
import torch.nn as nn

from model import PromptIR

torch.manual_seed(0)

opt = {
    "de_type": ["denoise_15", "denoise_25", "derain"],
    "patch_size": 32,
    "batch_size": 4,
    "lr": 2e-4,
    "epochs": 2,
    "iters_per_epoch": 3,
}


def degrade(clean, de_type):
    if de_type.startswith("denoise"):
        sigma = int(de_type.split("_")[1]) / 255.0
        return clean + sigma * torch.randn_like(clean)
    streaks = (torch.rand_like(clean[:, :1]) > 0.97).float()
    return (clean + 0.6 * streaks).clamp(0, 1)


def train_loader(opt):
    for i in range(opt["iters_per_epoch"]):
        clean = torch.rand(opt["batch_size"], 3, opt["patch_size"], opt["patch_size"])
        de_type = opt["de_type"][i % len(opt["de_type"])]
        yield degrade(clean, de_type), clean


class PromptIRTrainer:
    def __init__(self, opt):
        self.net = PromptIR(decoder=True)
        self.loss_fn = nn.L1Loss()
        self.optimizer = torch.optim.AdamW(self.net.parameters(), lr=opt["lr"])
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, lambda e: min(1.0, (e + 1) / 2))

    def training_step(self, degrad_patch, clean_patch):
        restored = self.net(degrad_patch)
        loss = self.loss_fn(restored, clean_patch)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


trainer = PromptIRTrainer(opt)
for epoch in range(opt["epochs"]):
    losses = [trainer.training_step(d, c) for d, c in train_loader(opt)]
    trainer.scheduler.step()
    print("epoch {} train_loss {:.4f}".format(epoch, sum(losses) / len(losses)))
