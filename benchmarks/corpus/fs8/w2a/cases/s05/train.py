import torch
from torch import nn

from frontend import Leaf

FRONTENDS = {"leaf": Leaf}
CONFIG = {"frontend": "leaf", "n_filters": 20, "num_classes": 4, "lr": 2e-3, "steps": 5}


class AudioClassifier(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.frontend = FRONTENDS[config["frontend"]](n_filters=config["n_filters"])
        self.encoder = nn.Sequential(
            nn.Conv1d(config["n_filters"], 32, 3, padding=1),
            nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
            nn.Flatten(),
        )
        self.head = nn.Linear(32, config["num_classes"])

    def forward(self, wav):
        return self.head(self.encoder(self.frontend(wav)))


def main():
    torch.manual_seed(0)
    model = AudioClassifier(CONFIG)
    opt = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"], betas=(0.9, 0.999), eps=1e-8,
                           weight_decay=1e-6, amsgrad=True)
    criterion = nn.CrossEntropyLoss()
    wav = torch.randn(8, 1, 4000)
    labels = torch.randint(0, CONFIG["num_classes"], (8,))
    for step in range(CONFIG["steps"]):
        logits = model(wav)
        loss = criterion(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    model = main()
