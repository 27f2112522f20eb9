import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


class AdvTrainer:
    def __init__(self, model, optimizer, eps, adv_weight, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.eps = eps
        self.adv_weight = adv_weight
        self.callbacks = list(callbacks)

    def fgsm(self, images, labels):
        images.requires_grad_(True)
        loss = F.cross_entropy(self.model(images), labels)
        grad, = torch.autograd.grad(loss, images, retain_graph=True)
        adv = (images + self.eps * grad.sign()).detach()
        return loss, adv

    def training_step(self, images, labels):
        self.model.train()
        clean_loss, adv = self.fgsm(images, labels)
        adv_loss = F.cross_entropy(self.model(adv), labels)
        loss = (1 - self.adv_weight) * clean_loss + self.adv_weight * adv_loss
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {"loss": loss.item(), "clean": images, "adv": adv}

    def fit(self, loader):
        for step, (images, labels) in enumerate(loader, start=1):
            batch = self.training_step(images, labels)
            for cb in self.callbacks:
                cb.on_batch_end(self, step, batch)
