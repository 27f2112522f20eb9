import torch


class Architect:
    def __init__(self, model, lr=3e-3, wdecay=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam([model.arch_weights], lr=lr, weight_decay=wdecay)

    def step(self, hidden_valid, input_valid, target_valid):
        self.optimizer.zero_grad()
        loss, hidden_next = self.model._loss(hidden_valid, input_valid, target_valid)
        loss.backward()
        self.optimizer.step()
        return hidden_next
