import torch
import torch.nn as nn
import torch.nn.functional as F

from hooks import FeatureTap, GradNormLogger, clip_grad_value_hooks

torch.manual_seed(0)

cfg = {"aux_layers": ["stage1", "stage2"], "aux_weight": 0.3, "clip": 0.5, "steps": 12}


class Net(nn.Module):
    def __init__(self, classes=6):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.stage2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        return self.fc(self.pool(self.stage2(self.stage1(x))).flatten(1))


class AuxHeads(nn.Module):
    def __init__(self, channels, classes=6):
        super().__init__()
        self.heads = nn.ModuleDict({k: nn.Linear(c, classes) for k, c in channels.items()})

    def forward(self, feats):
        return {k: self.heads[k](feats[k].mean(dim=(2, 3))) for k in self.heads}


model = Net()
aux = AuxHeads({"stage1": 8, "stage2": 16})
tap = FeatureTap(model, cfg["aux_layers"])
logger = GradNormLogger({"fc": model.fc, "aux_stage2": aux.heads["stage2"]})
clip_grad_value_hooks(model, cfg["clip"])
optimizer = torch.optim.Adam(list(model.parameters()) + list(aux.parameters()), lr=1e-3)

for step in range(cfg["steps"]):
    x = torch.randn(16, 1, 12, 12)
    y = torch.randint(0, 6, (16,))
    logits = model(x)
    aux_logits = aux(tap.features)
    loss = F.cross_entropy(logits, y)
    loss = loss + cfg["aux_weight"] * sum(F.cross_entropy(v, y) for v in aux_logits.values())

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 4 == 0:
        norms = " ".join(f"{k}={v:.3f}" for k, v in logger.norms.items())
        print(f"step {step}: loss {loss.item():.4f} {norms}")
