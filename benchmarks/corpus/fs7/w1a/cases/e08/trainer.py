import torch


class Trainer:
    def __init__(self, model, criterion, logger=None):
        self.model = model
        self.criterion = criterion
        self.logger = logger
        self.optimizer = None
        self.iteration_count = 0

    def build_optimizer(self, name, **kwargs):
        self.optimizer = getattr(torch.optim, name)(self.model.parameters(), **kwargs)
        return self

    def apply_model_and_loss(self, inputs, target):
        output = self.model(inputs)
        loss = self.criterion(output, target)
        return output, loss

    def train_for(self, loader, num_iterations):
        self.model.train()
        for inputs in loader:
            self.optimizer.zero_grad()
            output, loss = self.apply_model_and_loss(inputs, inputs)
            loss.backward()
            self.optimizer.step()
            self.iteration_count += 1
            if self.logger is not None:
                self.logger.end_of_iteration(self.iteration_count, {
                    "training_loss": loss.item(),
                    "training_inputs": inputs,
                    "training_prediction": output[0],
                })
            if self.iteration_count >= num_iterations:
                break
        return self
