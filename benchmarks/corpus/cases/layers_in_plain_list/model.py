import torch
import torch.nn as nn


class SNLINet(nn.Module):
    def __init__(self, options):
        super().__init__()
        self.embed = nn.Embedding(options["vocab"], options["n_hid"])
        self.hids = []
        for li in range(options["n_layers"]):
            self.hids.append([
                nn.Linear(options["n_hid"] * (2 if li == 0 else 1), options["n_hid"]),
                getattr(nn, options["act"])(),
            ])
        self.classifier = nn.Linear(options["n_hid"], 3)

    def forward(self, premise, hypothesis):
        h = torch.cat([self.embed(premise).mean(1), self.embed(hypothesis).mean(1)], dim=-1)
        for linear, act in self.hids:
            h = act(linear(h))
        return self.classifier(h)
