import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        if cfg["tuning"] == "adapter":
            self.trainable = [
                p for n, p in model.named_parameters()
                if "adapter" in n or n in ("pos", "head.weight", "head.bias")
            ]
        else:
            self.trainable = list(model.parameters())
        self.optimizer = torch.optim.AdamW(self.trainable, lr=cfg["lr"])

    def backward(self, loss):
        if self.cfg["tuning"] == "adapter":
            loss.backward(inputs=self.trainable)
        else:
            loss.backward()

    def train_step(self, ids, labels):
        self.model.train()
        logits = self.model(ids)
        loss = F.cross_entropy(logits, labels)
        self.optimizer.zero_grad(set_to_none=True)
        self.backward(loss)
        self.optimizer.step()
        return loss.item()

    def fit(self, batches):
        for step, (ids, labels) in enumerate(batches):
            loss = self.train_step(ids, labels)
            print(f"step {step} loss {loss:.4f}")
