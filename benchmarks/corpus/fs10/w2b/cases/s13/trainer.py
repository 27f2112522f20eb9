import torch


class Trainer:
    def __init__(self, config, model):
        self.config = config
        self.model = model
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config["learning_rate"])

    def _train_epoch(self, train_data, epoch_idx):
        self.model.train()
        total = 0.0
        for users, pos, neg in train_data:
            self.optimizer.zero_grad()
            loss = self.model.calculate_loss(users, pos, neg)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total

    def fit(self, make_train_data):
        for epoch_idx in range(self.config["epochs"]):
            if self.config["lottery"] and epoch_idx % self.config["prune_every"] == 0 and epoch_idx > 0:
                print("prune!")
                self.model.update_norm_adj()
            train_loss = self._train_epoch(make_train_data(epoch_idx), epoch_idx)
            kept = int(self.model.adj_mask_fixed.sum().item())
            print(f"epoch {epoch_idx} train loss: {train_loss:.4f} edges kept: {kept}")
