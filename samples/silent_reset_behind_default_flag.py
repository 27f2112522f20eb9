"""The trainer's optimizer_step() resets the gradients only when asked to (`zero_grad=False` by
default), and the training step never asks: every step adds all earlier gradients again.
Nothing raises."""
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)

    def optimizer_step(self, zero_grad: bool = False):
        self.optimizer.step()
        if zero_grad:
            self.optimizer.zero_grad()

    def training_step(self, x, y):
        loss = nn.functional.mse_loss(self.model(x), y)
        loss.backward()
        self.optimizer_step()
        return loss.item()


torch.manual_seed(0)
trainer = Trainer(nn.Linear(4, 1))
for step in range(4):
    print(step, round(trainer.training_step(torch.randn(8, 4), torch.randn(8, 1)), 4))
