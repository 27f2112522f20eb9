"""The model's only parameters are embeddings loaded with from_pretrained(freeze=...), and the
config freezes them: the loss has no graph and backward raises."""
import torch
from torch import nn

CONFIG = {"n_users": 20, "n_items": 30, "dim": 8, "freeze_pretrained": True}


class DotRecommender(nn.Module):
    def __init__(self, config, user_vectors, item_vectors):
        super().__init__()
        freeze = config["freeze_pretrained"]
        self.users = nn.Embedding.from_pretrained(user_vectors, freeze=freeze)
        self.items = nn.Embedding.from_pretrained(item_vectors, freeze=freeze)

    def forward(self, users, positives, negatives):
        u = self.users(users)
        return (u * self.items(positives)).sum(-1) - (u * self.items(negatives)).sum(-1)


torch.manual_seed(0)
model = DotRecommender(CONFIG, torch.randn(CONFIG["n_users"], CONFIG["dim"]), torch.randn(CONFIG["n_items"], CONFIG["dim"]))
users, positives, negatives = torch.randint(0, 20, (16,)), torch.randint(0, 30, (16,)), torch.randint(0, 30, (16,))
loss = -nn.functional.logsigmoid(model(users, positives, negatives)).mean()
loss.backward()
