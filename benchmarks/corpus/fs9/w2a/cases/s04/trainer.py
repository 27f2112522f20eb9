import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, lr, clip):
        self.model = model
        self.clip = clip
        self.optimizer = torch.optim.Adadelta(model.parameters(), lr=lr)

    def train_epoch(self, batches):
        self.model.train()
        correct, seen, total = 0, 0, 0.0
        for tokens, labels in batches:
            logits = self.model(tokens)
            loss = F.cross_entropy(logits, labels)
            self.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
            self.optimizer.step()
            total += loss.item() * labels.numel()
            correct += (logits.argmax(1) == labels).sum().item()
            seen += labels.numel()
        return total / seen, correct / seen
