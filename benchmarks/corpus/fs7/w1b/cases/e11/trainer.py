import torch.optim as optim


class Trainer:
    def __init__(self, config, model):
        self.config = config
        self.model = model
        self.epochs = config["epochs"]
        self.learning_rate = config["learning_rate"]
        self.optimizer = self._build_optimizer(self.model.parameters())

    def _build_optimizer(self, params):
        return optim.Adam(params, lr=self.learning_rate)

    def _train_epoch(self, train_data, epoch_idx):
        self.model.train()
        total_loss = 0.0
        for batch_idx, interaction in enumerate(train_data):
            self.optimizer.zero_grad()
            loss = self.model.calculate_loss(interaction)
            loss.backward()
            self.optimizer.step()
            total_loss += loss.item()
        return total_loss

    def fit(self, train_data, valid_data=None):
        for epoch_idx in range(self.epochs):
            train_loss = self._train_epoch(train_data, epoch_idx)
            print(f"epoch {epoch_idx} training loss: {train_loss:.4f}")
        return train_loss
