import torch
import torch.nn.functional as F

from utils import trainable_parameters


class Trainer:
    def __init__(self, model, lr=1e-2, epochs=2):
        self.model = model
        self.epochs = epochs
        self.optimizer = torch.optim.SGD(trainable_parameters(model), lr=lr, momentum=0.9)
        self.history = []

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for images, labels in loader:
            logits = self.model(images)
            loss = F.cross_entropy(logits, labels)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(loader)

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        correct = n = 0
        for images, labels in loader:
            correct += (self.model(images).argmax(1) == labels).sum().item()
            n += labels.numel()
        return correct / n

    def fit(self, train_loader, val_loader):
        for epoch in range(self.epochs):
            loss = self.train_epoch(train_loader)
            acc = self.evaluate(val_loader)
            self.history.append((loss, acc))
            print(f"epoch {epoch}: loss {loss:.4f} val acc {acc:.3f}")
