import numpy as np
import torch
import torch.nn as nn


class BPRLoss(nn.Module):
    def __init__(self, gamma=1e-10):
        super().__init__()
        self.gamma = gamma

    def forward(self, pos_score, neg_score):
        return -torch.log(self.gamma + torch.sigmoid(pos_score - neg_score)).mean()


class GeneralRecommender(nn.Module):
    def __init__(self, config, dataset):
        super().__init__()
        self.n_users = dataset.user_num
        self.n_items = dataset.item_num
        self.config = config

    def load_preloaded(self, field):
        key = self.config["preload_weight"][field]
        return torch.from_numpy(self.dataset_weights[key]).float()


class PretrainedDot(GeneralRecommender):
    def __init__(self, config, dataset):
        super().__init__(config, dataset)
        self.dataset_weights = dataset.preloaded
        freeze = config["freeze_preloaded"]
        self.user_embedding = nn.Embedding.from_pretrained(self.load_preloaded("uid"), freeze=freeze)
        self.item_embedding = nn.Embedding.from_pretrained(self.load_preloaded("iid"), freeze=freeze)
        self.loss = BPRLoss()

    def forward(self, user, item):
        return self.user_embedding(user), self.item_embedding(item)

    def calculate_loss(self, interaction):
        user = interaction["user_id"]
        pos_item = interaction["item_id"]
        neg_item = interaction["neg_item_id"]
        user_e, pos_e = self.forward(user, pos_item)
        neg_e = self.item_embedding(neg_item)
        pos_score = torch.mul(user_e, pos_e).sum(dim=1)
        neg_score = torch.mul(user_e, neg_e).sum(dim=1)
        return self.loss(pos_score, neg_score)

    def predict(self, interaction):
        user_e, item_e = self.forward(interaction["user_id"], interaction["item_id"])
        return torch.mul(user_e, item_e).sum(dim=1)


MODEL_REGISTRY = {"PretrainedDot": PretrainedDot}


def get_model(name):
    return MODEL_REGISTRY[name]
