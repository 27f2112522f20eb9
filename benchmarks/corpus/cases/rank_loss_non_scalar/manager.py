import torch
import torch.nn as nn

from racnn import RACNN, RankLoss


class Manager:
    def __init__(self, batch_size):
        self.model = RACNN()
        self.criterion_class = nn.CrossEntropyLoss()
        self.criterion_rank = RankLoss()
        self.batch_size = batch_size

    def do_batch(self, optimizer, batch, label, optimize_class=True):
        scores = self.model(batch)
        optimizer.zero_grad()
        if optimize_class:
            loss = sum(self.criterion_class(s, label) for s in scores)
            loss.backward()
        else:
            for i in range(1, len(scores)):
                retain_graph = i < len(scores) - 1
                self.criterion_rank(scores[i - 1], scores[i], label).backward(retain_graph=retain_graph)
        optimizer.step()

    def do_epoch(self, epoch_idx, optimizer, optimize_class=True):
        for _ in range(3):
            batch = torch.randn(self.batch_size, 3, 16, 16)
            label = torch.randint(0, 10, (self.batch_size,))
            self.do_batch(optimizer, batch, label, optimize_class=optimize_class)
        print(f"epoch {epoch_idx} done (optimize_class={optimize_class})")

    def train(self, epochs=2):
        optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.9)
        for epoch_idx in range(epochs):
            self.do_epoch(epoch_idx, optimizer, optimize_class=True)
            self.do_epoch(epoch_idx, optimizer, optimize_class=False)


if __name__ == "__main__":
    torch.manual_seed(0)
    Manager(batch_size=32).train()
