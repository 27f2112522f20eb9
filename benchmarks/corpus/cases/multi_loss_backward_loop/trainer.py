import torch

from model import MultiTaskNet


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def train_microbatch(self, batch):
        x, y_cls, y_reg = batch
        losses = self.model.loss(x, y_cls, y_reg)
        if not isinstance(losses, (tuple, list)):
            losses = [losses]
        self.optimizer.zero_grad()
        for loss in losses:
            loss.backward()
        self.optimizer.step()
        return sum(float(l) for l in losses)

    def fit(self, batches, epochs=2):
        for epoch in range(epochs):
            total = sum(self.train_microbatch(b) for b in batches)
            print(f"epoch {epoch}: loss {total / len(batches):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    data = [(torch.randn(16, 20), torch.randint(0, 5, (16,)), torch.randn(16)) for _ in range(4)]
    Trainer(MultiTaskNet()).fit(data)
